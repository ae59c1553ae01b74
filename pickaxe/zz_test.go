package pickaxe

import (
	"os"
	"path/filepath"
	"testing"
)

func TestZZFilterStats(t *testing.T) {
	dir := os.Getenv("ZZ_CHANGES")
	if dir == "" {
		t.Skip()
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*/*.diffs"))
	q := recordPlan(Pattern{Text: "ReadFull"})
	for _, f := range files {
		seg := f[:len(f)-len(".diffs")]
		h := filepath.Base(filepath.Dir(seg)) + filepath.Base(seg)
		s, err := readSegment(filepath.Dir(filepath.Dir(seg))+"/..", [20]byte{})
		_ = s
		_ = h
		_ = err
		// count changes from the index itself
		d, err := openDiffs(seg, -1)
		t.Log(err)
		if d == nil {
			continue
		}
		sizes := map[int]int{}
		pass := map[int]int{}
		for i := range d.index {
			n := len(d.index[i].filter)
			sizes[n]++
			if d.index[i].frame > 0 && d.mayHold(i, q) {
				pass[n]++
			}
		}
		t.Log(sizes, pass)
	}
}
