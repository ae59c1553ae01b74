package chunk

import (
	"bytes"
	"math/rand/v2"
	"os"
	"reflect"
	"testing"
)

// TestEditRandomEdits makes random line edits (insertions of code,
// comments, brackets and blank lines, deletions, changes inside a line) to
// real Go files and requires Edit, whenever it takes its fast path, to
// return what Split returns.
func TestEditRandomEdits(t *testing.T) {
	files := goSample(t, 150)
	rng := rand.New(rand.NewPCG(7, 9))
	snippets := []string{"\n", "// c\n", "// Doc.\n", "func Z() {}\n", "\t_ = 1\n", "}\n", "{\n", "var V = 2\n", "type T int\n", "/* x */\n", "`\n", "\"\n", "\n\n", "const (\n\tA = 1\n)\n", "func (t *T) M() {\n\tfor {\n\t}\n}\n", ")\n", "// +build x\n", "//go:noinline\n", "type (\n", "var (\n\tx = 1\n", "func() {\n", "\t// note\n", "/*\n", "*/\n"}
	fast, tried, bad := 0, 0, 0
	for _, p := range files {
		src, _ := os.ReadFile(p)
		prev := Split(p, src)
		if prev.Language != "go" {
			continue
		}
		lines := bytes.SplitAfter(src, []byte("\n"))
		for range 12 {
			ls := append([][]byte(nil), lines...)
			for range 1 + rng.IntN(2) {
				i := rng.IntN(len(ls))
				switch rng.IntN(3) {
				case 0:
					ls = append(ls[:i], append([][]byte{[]byte(snippets[rng.IntN(len(snippets))])}, ls[i:]...)...)
				case 1:
					j := min(len(ls), i+1+rng.IntN(4))
					ls = append(ls[:i:i], ls[j:]...)
				default:
					if len(ls[i]) > 2 {
						k := rng.IntN(len(ls[i]) - 1)
						l := append([]byte(nil), ls[i][:k]...)
						l = append(l, snippets[rng.IntN(len(snippets))][0])
						ls[i] = append(l, ls[i][k:]...)
					}
				}
			}
			next := bytes.Join(ls, nil)
			tried++
			got, ok := Edit(p, next, src, prev)
			if !ok {
				continue
			}
			fast++
			if want := Split(p, next); !reflect.DeepEqual(got, want) {
				bad++
				if bad <= 5 {
					t.Errorf("%s:\n%s", p, chunkDiff(got, want))
				}
			}
		}
	}
	t.Logf("%d edits, %d on the fast path, %d mismatches", tried, fast, bad)
	if fast < tried/10 {
		t.Errorf("only %d of %d edits took the fast path", fast, tried)
	}
}
