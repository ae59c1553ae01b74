package lexical

import (
	"fmt"
	"go/build"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/bcindex/bcindex/internal/checksum"
)

func goroot() string { return build.Default.GOROOT }

func crc32c(b []byte) uint32 { return checksum.Sum(b) }

type posting struct{ row, freq int }

// reference is the in-memory model of an index.
type reference struct {
	rows     int
	docLen   map[int]int
	postings map[string][]posting
	total    int64
}

func newReference() *reference {
	return &reference{docLen: map[int]int{}, postings: map[string][]posting{}}
}

func (r *reference) add(row int, toks []string) {
	r.rows = row + 1
	counts := map[string]int{}
	n := 0
	for _, t := range toks {
		if t != "" {
			counts[t]++
			n++
		}
	}
	r.docLen[row] = n
	r.total += int64(n)
	for t, c := range counts {
		r.postings[t] = append(r.postings[t], posting{row, c})
	}
}

func collect(p Postings) []posting {
	var out []posting
	for p.Next() {
		out = append(out, posting{p.Row(), p.Freq()})
	}
	return out
}

// check compares ix with ref in every detail.
func check(t *testing.T, ix *Index, ref *reference) {
	t.Helper()
	if err := ix.Verify(); err != nil {
		t.Fatalf("Verify: %v", err)
	}
	if ix.Rows() != ref.rows {
		t.Fatalf("Rows() = %d, want %d", ix.Rows(), ref.rows)
	}
	if ix.Terms() != len(ref.postings) {
		t.Fatalf("Terms() = %d, want %d", ix.Terms(), len(ref.postings))
	}
	if ix.TotalLen() != ref.total {
		t.Fatalf("TotalLen() = %d, want %d", ix.TotalLen(), ref.total)
	}
	for row := -1; row <= ref.rows; row++ {
		if got := ix.DocLen(row); got != ref.docLen[row] {
			t.Fatalf("DocLen(%d) = %d, want %d", row, got, ref.docLen[row])
		}
	}
	for term, want := range ref.postings {
		p := ix.Postings(term)
		if p.Len() != len(want) {
			t.Fatalf("Postings(%q).Len() = %d, want %d", term, p.Len(), len(want))
		}
		if got := collect(p); !slices.Equal(got, want) {
			t.Fatalf("Postings(%q) = %v, want %v", term, got, want)
		}
		if err := p.(*Iterator).Err(); err != nil {
			t.Fatalf("Postings(%q): %v", term, err)
		}
	}
	for _, term := range []string{"", "\x00", "zzzzzzzzzzzz-missing", "missing", "\xff\xff"} {
		if _, ok := ref.postings[term]; ok {
			continue
		}
		p := ix.Postings(term)
		if p.Len() != 0 || p.Next() {
			t.Fatalf("Postings(%q) of a missing term is not empty", term)
		}
	}
}

func writeAndOpen(t testing.TB, w *Writer) *Index {
	t.Helper()
	path := filepath.Join(t.TempDir(), "lex.idx")
	if err := w.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	ix, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

func randomDocs(rng *rand.Rand, nrows, vocab, maxLen int) (*Writer, *reference) {
	words := make([]string, vocab)
	for i := range words {
		words[i] = fmt.Sprintf("w%x", uint64(i)*2654435761%1000003)
		if i%7 == 0 {
			words[i] += "é"
		}
	}
	w, ref := NewWriter(), newReference()
	row := rng.IntN(3)
	for range nrows {
		n := rng.IntN(maxLen + 1)
		toks := make([]string, n)
		for j := range toks {
			// Zipf-like: small ids are frequent, as in real text.
			toks[j] = words[int(float64(vocab)*rng.Float64()*rng.Float64()*rng.Float64())]
		}
		w.Add(row, toks)
		ref.add(row, toks)
		row += 1 + rng.IntN(2)*rng.IntN(5) // sometimes gaps
	}
	return w, ref
}

func TestRoundTrip(t *testing.T) {
	tests := []struct {
		name                 string
		seed                 uint64
		nrows, vocab, maxLen int
	}{
		{"tiny", 1, 3, 5, 4},
		{"small", 2, 100, 50, 30},
		{"medium", 3, 2000, 3000, 200},
		{"long docs", 4, 20, 100, 5000},
		{"single row", 5, 1, 10, 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, ref := randomDocs(rand.New(rand.NewPCG(tt.seed, 0)), tt.nrows, tt.vocab, tt.maxLen)
			check(t, writeAndOpen(t, w), ref)
		})
	}
}

func TestRoundTripEdgeCases(t *testing.T) {
	t.Run("empty", func(t *testing.T) {
		check(t, writeAndOpen(t, NewWriter()), newReference())
	})
	t.Run("empty rows and gaps", func(t *testing.T) {
		w, ref := NewWriter(), newReference()
		for _, row := range []int{0, 5, 6, 100} {
			w.Add(row, nil)
			ref.add(row, nil)
		}
		w.Add(101, []string{"", "x", "", "x"})
		ref.add(101, []string{"", "x", "", "x"})
		check(t, writeAndOpen(t, w), ref)
	})
	t.Run("wide doc lengths", func(t *testing.T) {
		w, ref := NewWriter(), newReference()
		big := slices.Repeat([]string{"big"}, 70000)
		w.Add(0, []string{"small"})
		ref.add(0, []string{"small"})
		w.Add(3, big)
		ref.add(3, big)
		ix := writeAndOpen(t, w)
		if ix.width != 4 {
			t.Fatalf("width = %d, want 4", ix.width)
		}
		check(t, ix, ref)
	})
	t.Run("large row numbers", func(t *testing.T) {
		w, ref := NewWriter(), newReference()
		for _, row := range []int{0, 127, 128, 16383, 16384, 1 << 20} {
			w.Add(row, []string{"a", "b"})
			ref.add(row, []string{"a", "b"})
		}
		check(t, writeAndOpen(t, w), ref)
	})
	t.Run("tokens", func(t *testing.T) {
		w, ref := NewWriter(), newReference()
		for i, doc := range []string{
			"func (s *Server) ListenAndServe() error",
			"parseJSON2Yaml reads YAML and returns JSON",
			"日本語Text ΑλφαΒήτα",
		} {
			toks := Tokens(doc)
			w.Add(i, toks)
			ref.add(i, toks)
		}
		ix := writeAndOpen(t, w)
		check(t, ix, ref)
		if got := collect(ix.Postings("json")); !slices.Equal(got, []posting{{1, 2}}) {
			t.Fatalf("json postings = %v", got)
		}
	})
}

func TestWriterMisuse(t *testing.T) {
	for _, tt := range []struct {
		name string
		rows []int
	}{
		{"decreasing", []int{3, 2}},
		{"repeated", []int{1, 1}},
		{"negative", []int{-1}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := NewWriter()
			for _, r := range tt.rows {
				w.Add(r, []string{"x"})
			}
			path := filepath.Join(t.TempDir(), "lex.idx")
			if err := w.WriteFile(path); err == nil {
				t.Fatal("WriteFile succeeded after misuse of Add")
			}
			if _, err := os.Stat(path); !os.IsNotExist(err) {
				t.Fatalf("file written after misuse: %v", err)
			}
		})
	}
}

func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "lex.idx")
	for i := range 2 { // second write replaces the first
		w := NewWriter()
		w.Add(i, []string{fmt.Sprint("gen", i)})
		if err := w.WriteFile(path); err != nil {
			t.Fatal(err)
		}
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Fatalf("directory holds %d files, want 1 (temporary file left behind?)", len(ents))
	}
	ix, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if ix.Postings("gen1").Len() != 1 || ix.Postings("gen0").Len() != 0 {
		t.Fatal("second WriteFile did not replace the first")
	}
	if err := NewWriter().WriteFile(filepath.Join(dir, "missing", "x.idx")); err == nil {
		t.Fatal("WriteFile into a missing directory succeeded")
	}
}

func TestCloseIdempotent(t *testing.T) {
	w := NewWriter()
	w.Add(0, []string{"x"})
	ix := writeAndOpen(t, w)
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	if ix.Postings("x").Next() || ix.Rows() != 0 || ix.DocLen(0) != 0 {
		t.Fatal("closed index still answers")
	}
	if ix.Verify() == nil {
		t.Fatal("Verify on a closed index succeeded")
	}
}

func TestConcurrentReads(t *testing.T) {
	w, ref := randomDocs(rand.New(rand.NewPCG(9, 9)), 500, 200, 50)
	ix := writeAndOpen(t, w)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for term, want := range ref.postings {
				if got := collect(ix.Postings(term)); !slices.Equal(got, want) {
					t.Errorf("Postings(%q) = %v, want %v", term, got, want)
					return
				}
			}
		})
	}
	wg.Wait()
}

// The corruption tests call parse, which is Open after the mmap, on
// in-memory copies.
