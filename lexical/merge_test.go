package lexical

import (
	"bytes"
	"fmt"
	"math/rand"
	randv2 "math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
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
