package lexical

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"go/build"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
)

func goroot() string { return build.Default.GOROOT }

func crc32c(b []byte) uint32 { return crc32.Checksum(b, castagnoli) }

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

func validFile(t *testing.T) []byte {
	t.Helper()
	w, _ := randomDocs(rand.New(rand.NewPCG(7, 7)), 50, 40, 20)
	path := filepath.Join(t.TempDir(), "lex.idx")
	if err := w.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// openBytes writes data to a file and opens it.
func openBytes(t *testing.T, data []byte) (*Index, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "lex.idx")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return Open(path)
}

// exercise reads everything through the public API; it must not panic.
func exercise(ix *Index) error {
	for i := 0; i < ix.Terms(); i++ {
		it := ix.Iter(string(ix.term(i)))
		for it.Next() {
			ix.DocLen(it.Row())
		}
		if it.Err() != nil {
			return it.Err()
		}
	}
	collect(ix.Postings("w0"))
	return ix.Verify()
}

// blocksOf returns the number of dictionary blocks of a valid file.
func blocksOf(b []byte) int {
	terms, bsize := binary.LittleEndian.Uint64(b[16:]), uint64(b[7])
	return int((terms + bsize - 1) / bsize)
}

func TestOpenErrors(t *testing.T) {
	good := validFile(t)
	mod := func(f func(b []byte) []byte) []byte { return f(bytes.Clone(good)) }
	put64 := func(off int, v uint64) []byte {
		return mod(func(b []byte) []byte { binary.LittleEndian.PutUint64(b[off:], v); return b })
	}
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"empty file", nil, "shorter than"},
		{"short header", good[:headerSize-1], "shorter than"},
		{"header only", good[:headerSize], "truncated"},
		{"truncated by one", good[:len(good)-1], "truncated"},
		{"truncated half", good[:len(good)/2], "truncated"},
		{"trailing data", append(bytes.Clone(good), 0), "trailing data"},
		{"bad magic", mod(func(b []byte) []byte { copy(b, "NOPE!"); return b }), "bad magic"},
		{"not an index", []byte(strings.Repeat("package main\n", 10)), "bad magic"},
		{"future version", mod(func(b []byte) []byte { b[5] = 99; return b }), "unsupported version"},
		{"bad width", mod(func(b []byte) []byte { b[6] = 3; return b }), "width"},
		{"reserved", mod(func(b []byte) []byte { b[60] = 1; return b }), "reserved"},
		{"huge rows", put64(8, 1<<62), "out of range"},
		{"huge terms", put64(16, 1<<40), "out of range"},
		{"huge postings", put64(40, 1<<63), "out of range"},
		{"postings past the end", put64(40, 1<<40), "truncated"},
		{"rows off by one", put64(8, binary.LittleEndian.Uint64(good[8:])+1), "truncated"},
		{"terms off by a block", put64(16, binary.LittleEndian.Uint64(good[16:])-blockTerms), "trailing data"},
		{"terms off by a block up", put64(16, binary.LittleEndian.Uint64(good[16:])+blockTerms), "truncated"},
		{"block size 0", mod(func(b []byte) []byte { b[7] = 0; return b }), "block size"},
		{"other block size", mod(func(b []byte) []byte { b[7] = 1; return b }), "truncated"},
		{"first block", mod(func(b []byte) []byte { b[headerSize+16]++; return b }), "offset 0"},
		{"sentinel key", mod(func(b []byte) []byte {
			b[headerSize+blocksOf(b)*blockEntrySize]++
			return b
		}), "sentinel"},
		{"sentinel postings offset", mod(func(b []byte) []byte {
			b[headerSize+blocksOf(b)*blockEntrySize+8]++
			return b
		}), "sentinel"},
		{"sentinel dictionary offset", mod(func(b []byte) []byte {
			b[headerSize+blocksOf(b)*blockEntrySize+16]++
			return b
		}), "sentinel"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ix, err := openBytes(t, tt.data)
			if err == nil {
				ix.Close()
				t.Fatal("Open succeeded")
			}
			if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Open error %q, want ErrCorrupt mentioning %q", err, tt.want)
			}
		})
	}
	if _, err := Open(filepath.Join(t.TempDir(), "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("Open(missing) = %v, want ErrNotExist", err)
	}
}

// The corruption tests call parse, which is Open after the mmap, on
// in-memory copies.

// TestCorruptBody flips bytes after the header: Open may accept the file,
// but reading it must never panic and Verify must report the damage.
func TestCorruptBody(t *testing.T) {
	good := validFile(t)
	rng := rand.New(rand.NewPCG(3, 3))
	offsets := []int{headerSize, headerSize + 5, len(good) - 1}
	for range 200 {
		offsets = append(offsets, headerSize+rng.IntN(len(good)-headerSize))
	}
	for _, off := range offsets {
		for _, x := range []byte{0x01, 0x80, 0xff} {
			data := bytes.Clone(good)
			data[off] ^= x
			ix, err := parse("mem", data)
			if err != nil {
				if !errors.Is(err, ErrCorrupt) {
					t.Fatalf("byte %d ^ %#x: Open error %v is not ErrCorrupt", off, x, err)
				}
				continue
			}
			if err := exercise(ix); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("byte %d ^ %#x: corruption not detected (%v)", off, x, err)
			}
		}
	}
}

// TestCorruptNoChecksum damages structures and fixes the checksum up, so that
// only the structural checks stand between the reader and a panic.
func TestCorruptNoChecksum(t *testing.T) {
	good := validFile(t)
	rng := rand.New(rand.NewPCG(4, 4))
	detected := 0
	for i := range 2000 {
		data := bytes.Clone(good)
		for range 1 + i%3 {
			data[headerSize+rng.IntN(len(data)-headerSize)] = byte(rng.Uint32())
		}
		binary.LittleEndian.PutUint32(data[48:], crc32c(data[headerSize:]))
		ix, err := parse("mem", data)
		if err != nil {
			detected++
			continue
		}
		if exercise(ix) != nil {
			detected++
		}
	}
	// The test's main claim is that no corruption panics; most must also
	// be reported rather than read as valid data.
	if detected < 500 {
		t.Errorf("only %d of 2000 corruptions detected", detected)
	}
	t.Logf("%d of 2000 structural corruptions detected (the rest changed only term bytes, frequencies or rows in range)", detected)
}

func BenchmarkPostings(b *testing.B) {
	srcs := goSources(b)
	// Index net/http as 40-line chunks, as the chunker's windows would.
	w := NewWriter()
	row := 0
	for _, src := range srcs {
		lines := strings.SplitAfter(string(src), "\n")
		for i := 0; i < len(lines); i += 40 {
			w.Add(row, Tokens(strings.Join(lines[i:min(i+40, len(lines))], "")))
			row++
		}
	}
	ix := writeAndOpen(b, w)
	// Query terms of every frequency: the most common ones plus a sample.
	type tf struct {
		term string
		df   int
	}
	var all []tf
	for c := ix.cursor(0); c.next(); {
		all = append(all, tf{string(c.term), c.df})
	}
	sort.Slice(all, func(i, j int) bool { return all[i].df > all[j].df })
	var queries []string
	for i, t := range all {
		if i < 20 || i%50 == 0 {
			queries = append(queries, t.term)
		}
	}
	queries = append(queries, "nosuchterm", "zzzz")
	postingsPerOp := 0
	for _, q := range queries {
		postingsPerOp += ix.Postings(q).Len()
	}
	b.Logf("%d rows, %d terms, %d queries, %d postings per op", ix.Rows(), ix.Terms(), len(queries), postingsPerOp)

	b.Run("Postings", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, q := range queries {
				p := ix.Postings(q)
				for p.Next() {
					_ = p.Row() + p.Freq()
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*postingsPerOp), "ns/posting")
	})
	b.Run("Iter", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, q := range queries {
				it := ix.Iter(q)
				for it.Next() {
					_ = it.Row() + it.Freq()
				}
			}
		}
	})
	b.Run("Next", func(b *testing.B) {
		// Decoding alone: the lookups are done once, outside the loop.
		its := make([]Iterator, len(queries))
		for i, q := range queries {
			its[i] = ix.Iter(q)
		}
		b.ReportAllocs()
		for b.Loop() {
			for i := range its {
				it := its[i]
				for it.Next() {
					_ = it.Row() + it.Freq()
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*postingsPerOp), "ns/posting")
	})
	b.Run("BM25", func(b *testing.B) {
		// Per-posting work of a scorer: the doc length and BM25's term.
		avgdl := float64(ix.TotalLen()) / float64(ix.Rows())
		sum := 0.0
		b.ReportAllocs()
		for b.Loop() {
			for _, q := range queries {
				it := ix.Iter(q)
				for it.Next() {
					tf, dl := float64(it.Freq()), float64(ix.DocLen(it.Row()))
					sum += tf * 2.2 / (tf + 1.2*(0.25+0.75*dl/avgdl))
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*postingsPerOp), "ns/posting")
		_ = sum
	})
	b.Run("Lookup", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, q := range queries {
				ix.Iter(q)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(queries)), "ns/lookup")
	})
}

// FuzzParse: no input file makes the reader panic.
func FuzzParse(f *testing.F) {
	w, _ := randomDocs(rand.New(rand.NewPCG(8, 8)), 6, 8, 5)
	path := filepath.Join(f.TempDir(), "lex.idx")
	if err := w.WriteFile(path); err != nil {
		f.Fatal(err)
	}
	good, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good, false)
	f.Add(good, true)
	f.Add(good[:headerSize], false)
	// Several blocks, long shared prefixes and long suffixes.
	w = NewWriter()
	w.Add(0, numbered(strings.Repeat("prefix", 4), 3*blockTerms))
	w.Add(2, []string{"a", "ab", strings.Repeat("z", 40)})
	if err := w.WriteFile(path); err != nil {
		f.Fatal(err)
	}
	blocks, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(blocks, true)
	f.Fuzz(func(t *testing.T, data []byte, fixCRC bool) {
		if fixCRC && len(data) >= headerSize {
			binary.LittleEndian.PutUint32(data[48:], crc32c(data[headerSize:]))
		}
		ix, err := parse("fuzz", data)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("parse error %v is not ErrCorrupt", err)
			}
			return
		}
		exercise(ix)
		for row := -1; row <= ix.Rows(); row++ {
			ix.DocLen(row)
		}
	})
}
