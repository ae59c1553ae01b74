package chunk

import (
	"reflect"
	"slices"
	"testing"
)

// TestEditGroupFirst edits real Go files whose first definition is a spec
// of a group (`const (`, `var (`, `type (`), with at least three outside
// groups from the first one on: the header then ends at the group's line,
// and every edit Edit takes must equal Split.
func TestEditGroupFirst(t *testing.T) {
	tried, fast := 0, 0
	for _, p := range goSample(t, 1500) {
		src, prev, tops := splitTops(t, p)
		if prev.Fallback || prev.SyntaxErrors > 0 || len(tops) < 3 {
			continue
		}
		// Edit keeps only definitions outside brackets: a file that is
		// one group of constants (zsysnum_*.go) has nothing to keep.
		starts := make([]int, len(tops))
		for i, c := range tops {
			starts[i] = c.StartByte
		}
		enc := goEnclosing(src, starts)
		if enc[0] < 0 || slices.Index(enc, -1) < 0 || len(tops)-slices.Index(enc, -1) < 3 {
			continue
		}
		for _, e := range edits[:4] { // append, change a body, insert, delete
			next := e.apply(src, tops)
			if next == nil {
				continue
			}
			tried++
			got, ok := Edit(p, next, src, prev)
			if !ok {
				continue
			}
			fast++
			if want := Split(p, next); !reflect.DeepEqual(got, want) {
				t.Errorf("%s, %s:\n%s", p, e.name, chunkDiff(got, want))
			}
		}
	}
	t.Logf("%d edits of files whose first definition is in a group, %d on the fast path", tried, fast)
	if tried < 20 || fast < tried*8/10 {
		t.Errorf("fast path taken %d times of %d", fast, tried)
	}
}
