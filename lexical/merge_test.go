package lexical

import (
	"bytes"
	"fmt"
	"math/rand"
	randv2 "math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
)

// TestAppendMergesIndexes checks that appending two files with a row map
// gives the same postings as writing the kept rows directly.
func TestAppendMergesIndexes(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	vocab := []string{"parse", "config", "file", "retry", "backoff", "http", "server", "json"}
	doc := func() []string {
		var toks []string
		for n := rng.Intn(6); n >= 0; n-- {
			toks = append(toks, vocab[rng.Intn(len(vocab))])
		}
		return toks
	}
	dir := t.TempDir()
	var docs [2][][]string
	var srcs [2]*Index
	for s := range srcs {
		w := NewWriter()
		for r := 0; r < 50; r++ {
			docs[s] = append(docs[s], doc())
			w.Add(r, docs[s][r])
		}
		p := filepath.Join(dir, fmt.Sprintf("src%d", s))
		if err := w.WriteFile(p); err != nil {
			t.Fatal(err)
		}
		ix, err := Open(p)
		if err != nil {
			t.Fatal(err)
		}
		defer ix.Close()
		srcs[s] = ix
	}
	merged, direct := NewWriter(), NewWriter()
	next := 0
	for s := range srcs {
		rowMap := make([]int32, 50)
		for r := range rowMap {
			rowMap[r] = -1
			if (r+s)%3 != 0 { // drop a third of the rows
				rowMap[r] = int32(next)
				direct.Add(next, docs[s][r])
				next++
			}
		}
		if err := merged.Append(srcs[s], rowMap); err != nil {
			t.Fatal(err)
		}
	}
	pm, pd := filepath.Join(dir, "merged"), filepath.Join(dir, "direct")
	if err := merged.WriteFile(pm); err != nil {
		t.Fatal(err)
	}
	if err := direct.WriteFile(pd); err != nil {
		t.Fatal(err)
	}
	a, err := Open(pm)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Open(pd)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := a.Verify(); err != nil {
		t.Fatalf("merged file fails verification: %v", err)
	}
	if a.Rows() != b.Rows() || a.TotalLen() != b.TotalLen() || a.Terms() != b.Terms() {
		t.Fatalf("merged rows/len/terms %d/%d/%d, direct %d/%d/%d", a.Rows(), a.TotalLen(), a.Terms(), b.Rows(), b.TotalLen(), b.Terms())
	}
	for _, term := range vocab {
		if got, want := postingPairs(a, term), postingPairs(b, term); !reflect.DeepEqual(got, want) {
			t.Errorf("postings of %q: merged %v, direct %v", term, got, want)
		}
	}
	for r := 0; r < a.Rows(); r++ {
		if a.DocLen(r) != b.DocLen(r) {
			t.Fatalf("doc len of row %d: merged %d, direct %d", r, a.DocLen(r), b.DocLen(r))
		}
	}
	if err := NewWriter().Append(srcs[0], make([]int32, 3)); err == nil {
		t.Errorf("a row map of the wrong length was accepted")
	}
}

func postingPairs(ix *Index, term string) [][2]int {
	var out [][2]int
	it := ix.Iter(term)
	for it.Next() {
		out = append(out, [2]int{it.Row(), it.Freq()})
	}
	return out
}

// TestAppendIdentity checks that appending a whole index with the identity
// row map writes the same bytes as the original Writer did.
func TestAppendIdentity(t *testing.T) {
	for seed := range uint64(4) {
		w, _ := randomDocs(randv2.New(randv2.NewPCG(seed, 1)), 300+int(seed)*500, 2000, 40)
		dir := t.TempDir()
		p1, p2 := filepath.Join(dir, "a"), filepath.Join(dir, "b")
		if err := w.WriteFile(p1); err != nil {
			t.Fatal(err)
		}
		ix, err := Open(p1)
		if err != nil {
			t.Fatal(err)
		}
		rowMap := make([]int32, ix.Rows())
		for r := range rowMap {
			rowMap[r] = int32(r)
		}
		w2 := NewWriter()
		if err := w2.Append(ix, rowMap); err != nil {
			t.Fatal(err)
		}
		ix.Close()
		if err := w2.WriteFile(p2); err != nil {
			t.Fatal(err)
		}
		a, _ := os.ReadFile(p1)
		b, _ := os.ReadFile(p2)
		if !bytes.Equal(a, b) {
			t.Fatalf("seed %d: re-encoded file differs (%d and %d bytes)", seed, len(a), len(b))
		}
	}
}

// TestAppendRows: lengths follow one row map and postings another, in an
// order of their own; every kept row has its source's length, and each
// row's postings are those of the source row mapped to it, as Verify
// checks them.
func TestAppendRows(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	vocab := []string{"parse", "config", "file", "retry", "backoff", "http"}
	dir := t.TempDir()
	const n = 60
	docs := make([][]string, n)
	w := NewWriter()
	for r := range docs {
		for k := rng.Intn(5); k >= 0; k-- {
			docs[r] = append(docs[r], vocab[rng.Intn(len(vocab))])
		}
		w.Add(r, docs[r])
	}
	src := writeOpen(t, w, filepath.Join(dir, "src"))

	dst := NewWriter()
	dst.Add(0, []string{"before"}) // a row already in the writer
	lens, posts := make([]int32, n), make([]int32, n)
	var kept []int32
	for r := range lens {
		lens[r], posts[r] = -1, -1
		if r%4 != 0 {
			lens[r] = int32(1 + len(kept))
			kept = append(kept, lens[r])
		}
	}
	rng.Shuffle(len(kept), func(i, j int) { kept[i], kept[j] = kept[j], kept[i] })
	for r := range posts {
		if r%5 != 0 && len(kept) > 0 {
			posts[r], kept = kept[0], kept[1:]
		}
	}
	if err := dst.AppendRows(src, lens, posts, nil); err != nil {
		t.Fatal(err)
	}
	got := writeOpen(t, dst, filepath.Join(dir, "merged"))
	want := map[string][][2]int{}
	total := int64(1)
	for r := range docs {
		if lens[r] >= 0 {
			if got.DocLen(int(lens[r])) != len(docs[r]) {
				t.Errorf("row %d: length %d, want source row %d's %d", lens[r], got.DocLen(int(lens[r])), r, len(docs[r]))
			}
			total += int64(len(docs[r]))
		}
	}
	for _, term := range vocab {
		var pairs [][2]int
		for r, m := range posts {
			tf := 0
			for _, tok := range docs[r] {
				if tok == term {
					tf++
				}
			}
			if m >= 0 && tf > 0 {
				pairs = append(pairs, [2]int{int(m), tf})
			}
		}
		slices.SortFunc(pairs, func(a, b [2]int) int { return a[0] - b[0] })
		want[term] = pairs
		if g := postingPairs(got, term); !reflect.DeepEqual(g, pairs) {
			t.Errorf("postings of %q: %v, want %v", term, g, pairs)
		}
	}
	if got.TotalLen() != total || got.Rows() != 1+n-n/4 {
		t.Errorf("total length %d over %d rows, want %d over %d", got.TotalLen(), got.Rows(), total, 1+n-n/4)
	}

	// Postings mapped outside this call's rows, or twice to one row.
	outside := slices.Clone(posts)
	outside[1] = 0
	if err := NewWriter().AppendRows(src, lens, outside, nil); err == nil {
		t.Error("postings mapped to a row before the call's rows were accepted")
	}
	twice := slices.Clone(lens)
	twice[2] = twice[1]
	if err := NewWriter().AppendRows(src, lens, twice, nil); err == nil {
		t.Error("two rows' postings mapped to one row were accepted")
	}
}

// TestAddLength: a row added by its length alone has that length and no
// postings, and counts in the total; out of order it fails WriteFile.
func TestAddLength(t *testing.T) {
	dir := t.TempDir()
	w := NewWriter()
	w.Add(0, []string{"retry", "backoff"})
	w.AddLength(2, 7)
	w.Add(3, []string{"retry"})
	p := filepath.Join(dir, "lex")
	ix := writeOpen(t, w, p)
	if ix.Rows() != 4 || ix.DocLen(2) != 7 || ix.DocLen(1) != 0 || ix.TotalLen() != 10 {
		t.Errorf("rows %d, lengths %d %d, total %d; want 4 rows, 0 and 7, total 10", ix.Rows(), ix.DocLen(1), ix.DocLen(2), ix.TotalLen())
	}
	if got := postingPairs(ix, "retry"); !reflect.DeepEqual(got, [][2]int{{0, 1}, {3, 1}}) {
		t.Errorf("retry in %v, want rows 0 and 3", got)
	}
	w.AddLength(1, 3)
	if err := w.WriteFile(p); err == nil {
		t.Error("AddLength of a row before the last was accepted")
	}
}

// TestAppendRowsTokenDiff: a row taking over another row's postings with
// a token difference gets the other row's frequencies plus its own
// tokens less the other's: a term can grow, fall to nothing or be new to
// the source index.
func TestAppendRowsTokenDiff(t *testing.T) {
	dir := t.TempDir()
	w := NewWriter()
	w.Add(0, []string{"if", "10", "l10", "retry", "retry"})
	w.Add(1, []string{"backoff"})
	src := writeOpen(t, w, filepath.Join(dir, "src"))
	dst := NewWriter()
	// Row 1 is dropped; row 0's postings go to row 1 of dst, whose tokens
	// are "if 30 l30 retry retry retry".
	diff := map[int32]TokenDiff{1: {Plus: []string{"30", "l30", "retry"}, Minus: []string{"10", "l10"}}}
	if err := dst.AppendRows(src, []int32{0, 1}, []int32{1, -1}, diff); err != nil {
		t.Fatal(err)
	}
	got := writeOpen(t, dst, filepath.Join(dir, "merged"))
	for term, want := range map[string][][2]int{"if": {{1, 1}}, "retry": {{1, 3}}, "30": {{1, 1}}, "l30": {{1, 1}}, "10": nil, "l10": nil, "backoff": nil} {
		if g := postingPairs(got, term); !reflect.DeepEqual(g, want) {
			t.Errorf("%q: %v, want %v", term, g, want)
		}
	}
	if got.Terms() != 4 {
		t.Errorf("%d terms, want 4 (none left empty)", got.Terms())
	}
	bad := map[int32]TokenDiff{0: {Plus: []string{"x"}}}
	if err := NewWriter().AppendRows(src, []int32{0, 1}, []int32{1, -1}, bad); err == nil {
		t.Error("a token difference on a row that takes no postings over was accepted")
	}
}

// writeOpen writes w's index to p, opens it and verifies it; the index is
// closed when the test ends.
func writeOpen(t *testing.T, w *Writer, p string) *Index {
	t.Helper()
	if err := w.WriteFile(p); err != nil {
		t.Fatal(err)
	}
	ix, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	if err := ix.Verify(); err != nil {
		t.Fatalf("%s fails verification: %v", p, err)
	}
	return ix
}
