package segment

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/internal/checksum"
	"github.com/bcindex/bcindex/ngram"
)

// TestContentRoundTrip: texts stored compressed or as they are come back
// byte for byte, in blob-table order whatever order they were added in;
// a blob without text has none; a merge copies the kept ones; a flipped
// byte fails the checks; data past the spill threshold goes through the
// temporary file.
func TestContentRoundTrip(t *testing.T) {
	texts := map[string][]byte{
		"code":  []byte(strings.Repeat("func f() error { return nil }\n", 200)),
		"short": []byte("x"),
		"rand":  []byte("\x8f\x01\x33\xfe\x10\x99\x42\x00\x7f"), // LZ4 saves nothing: stored as is
		"empty": nil,
	}
	var shas [][20]byte
	names := map[[20]byte]string{}
	for name := range texts {
		s := sha1.Sum([]byte(name))
		shas, names[s] = append(shas, s), name
	}
	none := sha1.Sum([]byte("binary, not read"))
	shas = append(shas, none)
	sort.Slice(shas, func(i, j int) bool { return bytes.Compare(shas[i][:], shas[j][:]) < 0 })
	index := func(sha [20]byte) (int, bool) {
		for i, s := range shas {
			if s == sha {
				return i, true
			}
		}
		return 0, false
	}
	dir := t.TempDir()
	var w ContentWriter
	for name, b := range texts {
		if err := w.Add(sha1.Sum([]byte(name)), StoreText(b, nil), len(b)); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, ContentFile)
	if err := w.WriteFile(path, len(shas), index); err != nil {
		t.Fatal(err)
	}
	c, err := OpenContent(path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Verify(); err != nil {
		t.Fatal(err)
	}
	for b, sha := range shas {
		got, ok, err := c.Text(b, nil)
		want := texts[names[sha]]
		if err != nil || ok != (len(want) > 0) || !bytes.Equal(got, want) {
			t.Errorf("blob %q: %q %v %v, want %q", names[sha], got, ok, err, want)
		}
	}
	// A merge keeps what keep accepts.
	var m ContentWriter
	drop := sha1.Sum([]byte("code"))
	if err := m.Append(c, func(b int) [20]byte { return shas[b] }, func(s [20]byte) bool { return s != drop }); err != nil {
		t.Fatal(err)
	}
	merged := filepath.Join(dir, "merged.bin")
	if err := m.WriteFile(merged, len(shas), index); err != nil {
		t.Fatal(err)
	}
	mc, err := OpenContent(merged)
	if err != nil {
		t.Fatal(err)
	}
	defer mc.Close()
	for b, sha := range shas {
		got, ok, _ := mc.Text(b, nil)
		want := texts[names[sha]]
		if sha == drop {
			want = nil
		}
		if ok != (len(want) > 0) || !bytes.Equal(got, want) {
			t.Errorf("merged blob %q: %q %v", names[sha], got, ok)
		}
	}
	// Damage anywhere is found.
	data, _ := os.ReadFile(path)
	for _, at := range []int{2, 40, 64 + 3, len(data) / 2, len(data) - 2} {
		bad := bytes.Clone(data)
		bad[at] ^= 0x20
		p := filepath.Join(dir, "bad.bin")
		os.WriteFile(p, bad, 0o644)
		bc, err := OpenContent(p)
		if err == nil {
			err = bc.Verify()
			bc.Close()
		}
		if err == nil {
			t.Errorf("byte %d flipped: no error", at)
		}
	}
	// Past spillBytes the data goes through a temporary file.
	big := make([]byte, spillBytes/2+1)
	rng := rand.New(rand.NewPCG(1, 2)) // incompressible: stored as is
	for i := range big {
		big[i] = byte(rng.Uint32())
	}
	var sw ContentWriter
	sw.TempDir = dir
	a, b := sha1.Sum([]byte("a")), sha1.Sum([]byte("b"))
	for _, s := range [][20]byte{a, b} {
		if err := sw.Add(s, StoreText(big, nil), len(big)); err != nil {
			t.Fatal(err)
		}
	}
	if sw.spill == nil {
		t.Fatal("no spill past the threshold")
	}
	two := [][20]byte{a, b}
	sort.Slice(two, func(i, j int) bool { return bytes.Compare(two[i][:], two[j][:]) < 0 })
	sp := filepath.Join(dir, "spilled.bin")
	if err := sw.WriteFile(sp, 2, func(s [20]byte) (int, bool) {
		if s == two[0] {
			return 0, true
		}
		return 1, true
	}); err != nil {
		t.Fatal(err)
	}
	sc, err := OpenContent(sp)
	if err != nil {
		t.Fatal(err)
	}
	defer sc.Close()
	for i := 0; i < 2; i++ {
		if got, ok, err := sc.Text(i, nil); !ok || err != nil || !bytes.Equal(got, big) {
			t.Fatalf("spilled blob %d: %v %v", i, ok, err)
		}
	}
}

// TestContentPieces: a large text stored in pieces (at ngram.Bounds's
// ends) decodes whole as it was; its pieces carry their first lines'
// numbers; TextPieces decodes only the pieces asked for, into their place;
// a merge copies the pieces; a piece table that does not hold together is
// an error from every reader, never a panic, even under a valid checksum
// (flipped bytes of a block are the checksum's to find).
func TestContentPieces(t *testing.T) {
	var b strings.Builder
	for i := range 50000 {
		fmt.Fprintf(&b, "line %d %s\n", i, strings.Repeat("x", i%61))
	}
	text := []byte(b.String())
	ends := ngram.Bounds(text)
	if len(ends) < 10 {
		t.Fatalf("%d pieces", len(ends))
	}
	small := []byte(strings.Repeat("func f() error { return nil }\n", 20))
	big, other := sha1.Sum([]byte("big")), sha1.Sum([]byte("small"))
	shas := [][20]byte{big, other}
	sort.Slice(shas, func(i, j int) bool { return bytes.Compare(shas[i][:], shas[j][:]) < 0 })
	index := func(sha [20]byte) (int, bool) { return slices.Index(shas, sha), slices.Contains(shas, sha) }
	bi, _ := index(big)
	dir := t.TempDir()
	write := func(name string, add func(w *ContentWriter)) *Content {
		var w ContentWriter
		add(&w)
		path := filepath.Join(dir, name)
		if err := w.WriteFile(path, len(shas), index); err != nil {
			t.Fatal(err)
		}
		c, err := OpenContent(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	stored := StoreText(text, ends)
	if !stored.Pieced || len(stored.Bytes) >= len(text)/2 {
		t.Fatalf("stored pieced %v in %d of %d bytes", stored.Pieced, len(stored.Bytes), len(text))
	}
	c := write("content.bin", func(w *ContentWriter) {
		w.Add(big, stored, len(text))
		w.Add(other, StoreText(small, nil), len(small))
	})
	if err := c.Verify(); err != nil {
		t.Fatal(err)
	}
	check := func(c *Content) {
		t.Helper()
		if got, ok, err := c.Text(bi, nil); !ok || err != nil || !bytes.Equal(got, text) {
			t.Fatalf("whole text: %v %v, equal %v", ok, err, bytes.Equal(got, text))
		}
		pieces, err := c.Pieces(bi)
		if err != nil || len(pieces) != len(ends) || c.PieceCount(bi) != len(ends) || c.PieceCount(1-bi) != 0 {
			t.Fatalf("%d pieces (%d counted), want %d: %v", len(pieces), c.PieceCount(bi), len(ends), err)
		}
		for k, p := range pieces {
			if line := 1 + bytes.Count(text[:p.Start], []byte{'\n'}); p.End != ends[k] || p.Line != line {
				t.Fatalf("piece %d: %+v, want end %d line %d", k, p, ends[k], line)
			}
		}
		buf := bytes.Repeat([]byte{'#'}, len(text))
		got, read, ok, err := c.TextPieces(bi, buf, func(k int) bool { return k == 0 || k == 3 || k == len(ends)-1 })
		if !ok || err != nil || len(read) != 3 || read[1] != pieces[3] {
			t.Fatalf("pieces 0, 3 and last: %v %v %+v", ok, err, read)
		}
		for at := range text {
			in := slices.ContainsFunc(read, func(p Piece) bool { return p.Start <= at && at < p.End })
			if want := map[bool]byte{true: text[at], false: '#'}[in]; got[at] != want {
				t.Fatalf("byte %d: %q, want %q (in a piece read: %v)", at, got[at], want, in)
			}
		}
		if _, read, _, err := c.TextPieces(bi, nil, func(int) bool { return false }); read == nil || len(read) != 0 || err != nil {
			t.Fatalf("no piece asked: %v %v", read, err)
		}
		if got, read, ok, _ := c.TextPieces(1-bi, nil, func(int) bool { return false }); !ok || read != nil || !bytes.Equal(got, small) {
			t.Fatalf("a blob stored whole: %v %v", read, ok)
		}
	}
	check(c)
	check(write("merged.bin", func(w *ContentWriter) {
		if err := w.Append(c, func(b int) [20]byte { return shas[b] }, nil); err != nil {
			t.Fatal(err)
		}
	}))
	// Tables that do not hold together, written with valid checksums.
	n := len(ends)
	table := func(k, field int) int { return 4 + pieceEntrySize*k + 4*field }
	for name, damage := range map[string]func(s []byte){
		"count zero":      func(s []byte) { binary.LittleEndian.PutUint32(s, 0) },
		"count too large": func(s []byte) { binary.LittleEndian.PutUint32(s, uint32(len(s))) },
		"first not at 0":  func(s []byte) { binary.LittleEndian.PutUint32(s[table(0, 0):], 1) },
		"starts descend":  func(s []byte) { binary.LittleEndian.PutUint32(s[table(2, 0):], 5) },
		"start past end":  func(s []byte) { binary.LittleEndian.PutUint32(s[table(n-1, 0):], uint32(len(text)+9)) },
		"line off by one": func(s []byte) {
			binary.LittleEndian.PutUint32(s[table(4, 1):], binary.LittleEndian.Uint32(s[table(4, 1):])+1)
		},
		"block too long": func(s []byte) { binary.LittleEndian.PutUint32(s[table(1, 2):], 1<<30) },
		"blocks not filled": func(s []byte) {
			binary.LittleEndian.PutUint32(s[table(1, 2):], binary.LittleEndian.Uint32(s[table(1, 2):])-1)
		},
	} {
		bad := Stored{Bytes: bytes.Clone(stored.Bytes), Pieced: true}
		damage(bad.Bytes)
		bc := write("bad.bin", func(w *ContentWriter) { w.Add(big, bad, len(text)) })
		if err := bc.Verify(); err == nil {
			t.Errorf("%s: Verify passes", name)
		}
		if name == "line off by one" {
			continue // read as a table: only Verify counts the lines
		}
		_, ok1, err1 := bc.Text(bi, nil)
		_, _, ok2, err2 := bc.TextPieces(bi, nil, func(k int) bool { return k > 0 })
		if err1 == nil || err2 == nil || ok1 || ok2 {
			t.Errorf("%s: read with %v, %v", name, err1, err2)
		}
	}
}

// TestContentFirstVersion: a file of the first version (BCTEXT01), which
// has no pieces, is still read.
func TestContentFirstVersion(t *testing.T) {
	text := []byte(strings.Repeat("func f() error { return nil }\n", 100))
	var w ContentWriter
	sha := sha1.Sum(text)
	w.Add(sha, StoreText(text, nil), len(text))
	path := filepath.Join(t.TempDir(), ContentFile)
	if err := w.WriteFile(path, 1, func([20]byte) (int, bool) { return 0, true }); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	copy(data, contentMagicV1)
	binary.LittleEndian.PutUint32(data[60:], checksum.Sum(data[:60]))
	os.WriteFile(path, data, 0o644)
	c, err := OpenContent(path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Verify(); err != nil {
		t.Fatal(err)
	}
	if got, ok, err := c.Text(0, nil); !ok || err != nil || !bytes.Equal(got, text) || c.PieceCount(0) != 0 {
		t.Fatalf("%v %v", ok, err)
	}
}
