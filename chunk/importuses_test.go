package chunk

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestImportUsesMatchScan: the names a chunk takes from the file's one scan
// are those a scan of the chunk's own bytes finds, for every chunk of real
// code with imports and for random ranges, which split identifiers too.
func TestImportUsesMatchScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	files, ranges := 0, 0
	split := 0
	for _, rf := range realCorpus(t) {
		imports := fileImports(rf.lang, rf.src)
		if len(imports) == 0 {
			continue
		}
		files++
		uses := findImportUses(rf.src, imports)
		f := Split(rf.path, rf.src)
		var bounds [][2]int
		for _, c := range f.Chunks {
			bounds = append(bounds, [2]int{c.StartByte, c.EndByte})
		}
		for range 50 {
			s := rng.IntN(len(rf.src) + 1)
			bounds = append(bounds, [2]int{s, s + rng.IntN(len(rf.src)-s+1)})
		}
		for _, b := range bounds {
			want := usedNames(rf.src[b[0]:b[1]], imports)
			got := uses.in(rf.src, b[0], b[1], imports)
			if !slices.Equal(got, want) || (got == nil) != (want == nil) {
				t.Fatalf("%s [%d, %d): %q, a scan of the range %q", rf.path, b[0], b[1], got, want)
			}
			if splitsIdent(rf.src, b[0]) || splitsIdent(rf.src, b[1]) {
				split++
			}
			ranges++
		}
	}
	if files < 10 || split == 0 {
		t.Fatalf("%d files with imports, %d of %d ranges split an identifier", files, split, ranges)
	}
}
