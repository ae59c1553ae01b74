package ngram

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/exact"
	"github.com/bcindex/bcindex/internal/checksum"
)

// bigText is a text blob of n lines, line i "row i filler…", with extra
// put on the lines at the given fractions of the blob.
func bigText(n int, extra map[float64]string) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "row %d filler text for the blob\n", i)
		for at, s := range extra {
			if i == int(at*float64(n)) {
				b.WriteString(s + "\n")
			}
		}
	}
	return b.String()
}

// TestPiecesCutAtLineEnds: the pieces are the blob's bytes in order, each
// but the last ending with a line end at or past PieceSize; a small blob
// and a blob of one line are not cut.
func TestPiecesCutAtLineEnds(t *testing.T) {
	text := bigText(60000, nil)
	pieces := cutPieces([]byte(text))
	if len(pieces) < 2 {
		t.Fatalf("%d pieces of %d bytes", len(pieces), len(text))
	}
	// Cut as Pieces does and compare each piece's trigrams.
	var cut []string
	for rest := text; rest != ""; {
		end := len(rest)
		if PieceSize < len(rest) {
			if i := strings.IndexByte(rest[PieceSize:], '\n'); i >= 0 {
				end = PieceSize + i + 1
			}
		}
		cut = append(cut, rest[:end])
		rest = rest[end:]
	}
	if strings.Join(cut, "") != text || len(cut) != len(pieces) {
		t.Fatalf("%d pieces, want %d", len(pieces), len(cut))
	}
	for i, c := range cut {
		if i < len(cut)-1 && (len(c) < PieceSize || c[len(c)-1] != '\n') {
			t.Fatalf("piece %d: %d bytes, ends %q", i, len(c), c[len(c)-1:])
		}
		if !slices.Equal(pieces[i], grams(c)) {
			t.Fatalf("piece %d: %d trigrams, want %d", i, len(pieces[i]), len(grams(c)))
		}
	}
	ends, at := Bounds([]byte(text)), 0
	for i, c := range cut {
		if at += len(c); i >= len(ends) || ends[i] != at {
			t.Fatalf("piece %d ends at %d, Bounds says %v", i, at, ends[min(i, len(ends)-1)])
		}
	}
	if cutPieces([]byte(text[:PiecedSize-1])) != nil {
		t.Fatal("a blob under PiecedSize is cut")
	}
	if cutPieces(bytes.Repeat([]byte("x"), PiecedSize+1)) != nil {
		t.Fatal("a blob of one line is cut")
	}
}

// words is the plan of its words all present: And of their trigrams.
func words(s string, lines bool) *exact.Query {
	q := &exact.Query{Op: exact.And, Lines: lines}
	for _, w := range strings.Fields(s) {
		q.Trigrams = append(q.Trigrams, grams(w)...)
	}
	return q
}

// TestPiecesRuleOut: a plan marked Lines holds in a blob indexed in pieces
// only if it holds in one piece; an unmarked plan (git grep --all-match's)
// reads the blob's document. A merge keeps the pieces, Verify accepts
// them, and a piece that does not follow its blob is found.
func TestPiecesRuleOut(t *testing.T) {
	// "alpha" near the start, "omega" near the end: both in the blob, never
	// in one piece; "alpha omega" together in the middle of another blob.
	far := bigText(60000, map[float64]string{0.01: "alpha_key", 0.99: "omega_key"})
	near := bigText(60000, map[float64]string{0.5: "alpha_key omega_key"})
	f := newFixture(texts[0], far, near)
	w := NewWriter()
	for i, s := range f.texts {
		w.Add(f.shas[i], grams(s), false)
		if p := cutPieces([]byte(s)); p != nil {
			if err := w.AddPieces(f.shas[i], p); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.AddPieces(f.shas[0], [][]uint32{grams("x")}); err == nil {
		t.Fatal("pieces of a blob not the last added were taken")
	}
	ix := f.write(t, w)
	if ix.Docs() <= 3 || len(ix.pieces()) != 2 {
		t.Fatalf("%d documents, %d blobs in pieces", ix.Docs(), len(ix.pieces()))
	}
	blob := func(i int) int { b, _ := f.blobIndex(f.shas[i]); return b }
	check := func(ix *Index) {
		t.Helper()
		for _, c := range []struct {
			lit         string
			lines       bool
			far, near   bool
			small, none bool
		}{
			{lit: "alpha_key", lines: true, far: true, near: true},
			{lit: "omega_key", lines: true, far: true, near: true},
			{lit: "alpha_key omega_key", lines: true, near: true},
			{lit: "alpha_key omega_key", lines: false, far: true, near: true},
			{lit: "filler text", lines: true, far: true, near: true},
			{lit: "ReadFull", lines: true, small: true},
		} {
			set, err := ix.Candidates(words(c.lit, c.lines))
			if err != nil {
				t.Fatal(err)
			}
			for i, want := range []bool{c.small, c.far, c.near} {
				d, ok := ix.BlobDoc(blob(i))
				if !ok {
					t.Fatalf("blob %d has no document", i)
				}
				if got := set.Test(uint(d)); got != want {
					t.Errorf("%q (lines %v): blob %d a candidate: %v, want %v", c.lit, c.lines, i, got, want)
				}
			}
		}
	}
	check(ix)
	// A merge after a new blob keeps every blob's pieces after it.
	m := NewWriter()
	m.Add(f.shas[0], grams(texts[0]), false)
	if err := m.Append(ix, func(b int) [20]byte { return f.sorted[b] }, func(sha [20]byte) bool { return sha != f.shas[0] }); err != nil {
		t.Fatal(err)
	}
	merged := f.write(t, m)
	if merged.Docs() != ix.Docs() || len(merged.pieces()) != 2 {
		t.Fatalf("merged: %d documents of %d, %d blobs in pieces", merged.Docs(), ix.Docs(), len(merged.pieces()))
	}
	check(merged)
	// A piece whose document before it is another blob's is damage.
	data, err := w.Encode(len(f.sorted), f.blobIndex)
	if err != nil {
		t.Fatal(err)
	}
	for d := 0; d < ix.Docs(); d++ {
		if !ix.isPiece(d) || ix.isPiece(d-1) {
			continue
		}
		bad := bytes.Clone(data)
		// Make the piece's blob the small blob's.
		at := headerSize + 4*d
		binary.LittleEndian.PutUint32(bad[at:], uint32(blob(0))|pieceBit)
		binary.LittleEndian.PutUint32(bad[32:], checksum.Sum(bad[headerSize:]))
		binary.LittleEndian.PutUint32(bad[60:], checksum.Sum(bad[:60]))
		bix, err := Parse(bad)
		if err == nil {
			err = bix.Verify()
		}
		if !errors.Is(err, ErrCorrupt) {
			t.Fatalf("piece %d moved to another blob: %v, want ErrCorrupt", d, err)
		}
		return
	}
	t.Fatal("no piece found")
}

// TestUnion: the pieces' union is the blob's trigrams but for some that
// hold a '\n' (those spanning two pieces), Kelvin sign's replacement
// included.
func TestUnion(t *testing.T) {
	text := bigText(60000, map[float64]string{0.5: "\u212Aelvin"})
	all := exact.Trigrams([]byte(text), nil)
	got := Union(cutPieces([]byte(text)))
	if !slices.IsSorted(got) || len(got) == 0 {
		t.Fatalf("the union of %d trigrams is not sorted", len(got))
	}
	newline := func(g uint32) bool { return g>>16 == '\n' || g>>8&0xff == '\n' || g&0xff == '\n' }
	for _, g := range all {
		if _, in := slices.BinarySearch(got, g); !in && !newline(g) {
			t.Fatalf("trigram %06x of the blob, without '\\n', is not in the union", g)
		}
	}
	for _, g := range got {
		if _, in := slices.BinarySearch(all, g); !in {
			t.Fatalf("trigram %06x is in the union, not the blob", g)
		}
	}
	if _, in := slices.BinarySearch(got, uint32('k')<<16|uint32('e')<<8|'l'); !in {
		t.Fatal("the Kelvin sign's replacement is not in the union")
	}
}

// cutPieces is Pieces at the blob's Bounds.
func cutPieces(content []byte) [][]uint32 { return Pieces(content, Bounds(content)) }
