package ngram

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"testing"

	"github.com/bcindex/bcindex/exact"
	"github.com/bcindex/bcindex/internal/checksum"
)

// grams is the plain definition of a document's trigram set, folded as
// exact.Fold folds: the test's oracle.
func grams(s string) []uint32 {
	fold := func(b byte) uint32 {
		if 'A' <= b && b <= 'Z' {
			b += 'a' - 'A'
		}
		return uint32(b)
	}
	set := map[uint32]bool{}
	for i := 0; i+3 <= len(s); i++ {
		set[fold(s[i])<<16|fold(s[i+1])<<8|fold(s[i+2])] = true
	}
	var out []uint32
	for g := range set {
		out = append(out, g)
	}
	slices.Sort(out)
	return out
}

type fixture struct {
	texts []string
	shas  [][20]byte
	// sorted is the SHAs in chunk-table order.
	sorted [][20]byte
}

func newFixture(texts ...string) *fixture {
	f := &fixture{texts: texts}
	for _, t := range texts {
		f.shas = append(f.shas, sha1.Sum([]byte(t)))
	}
	f.sorted = append([][20]byte(nil), f.shas...)
	// One blob of the segment has no trigrams (binary, say).
	f.sorted = append(f.sorted, sha1.Sum([]byte("binary")))
	sort.Slice(f.sorted, func(i, j int) bool { return bytes.Compare(f.sorted[i][:], f.sorted[j][:]) < 0 })
	return f
}

func (f *fixture) blobIndex(sha [20]byte) (int, bool) {
	i := sort.Search(len(f.sorted), func(i int) bool { return bytes.Compare(f.sorted[i][:], sha[:]) >= 0 })
	return i, i < len(f.sorted) && f.sorted[i] == sha
}

func (f *fixture) write(t *testing.T, w *Writer) *Index {
	t.Helper()
	data, err := w.Encode(len(f.sorted), f.blobIndex)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "grams.bin")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	ix, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	if err := ix.Verify(); err != nil {
		t.Fatal(err)
	}
	return ix
}

// encode is the trigram file of the fixture's texts, none binary.
func (f *fixture) encode(t *testing.T) []byte {
	t.Helper()
	w := NewWriter()
	for i, s := range f.texts {
		w.Add(f.shas[i], grams(s), false)
	}
	data, err := w.Encode(len(f.sorted), f.blobIndex)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// check compares every trigram's postings with the documents whose text
// holds it: texts lists the fixture's texts the file holds, each a
// document whose number the file chose (docOrder).
func (f *fixture) check(t *testing.T, ix *Index, texts []int) {
	t.Helper()
	if ix.Docs() != len(texts) {
		t.Fatalf("%d documents, want %d", ix.Docs(), len(texts))
	}
	want := map[uint32][]uint32{}
	for _, i := range texts {
		b, _ := f.blobIndex(f.shas[i])
		d, ok := ix.BlobDoc(b)
		if !ok {
			t.Fatalf("text %d (blob %d) has no document", i, b)
		}
		if back, err := ix.DocBlob(d); err != nil || back != b {
			t.Fatalf("document %d: blob %d %v, want %d", d, back, err, b)
		}
		for _, g := range grams(f.texts[i]) {
			want[g] = append(want[g], uint32(d))
		}
	}
	if ix.Grams() != len(want) {
		t.Fatalf("%d trigrams, want %d", ix.Grams(), len(want))
	}
	for g, w := range want {
		slices.Sort(w)
		got, err := ix.Lookup(g)
		if err != nil || !slices.Equal(got, w) {
			t.Fatalf("trigram %06x: %v %v, want %v", g, got, err, w)
		}
	}
	if got, _ := ix.Lookup(0x7a7a7a); got != nil {
		t.Fatalf("absent trigram has %v", got)
	}
	bin, _ := f.blobIndex(sha1.Sum([]byte("binary")))
	if _, ok := ix.BlobDoc(bin); ok {
		t.Fatal("the blob without trigrams has a document")
	}
}

var texts = []string{
	"func ReadFull(r Reader, buf []byte)",
	"Transaction Conflict. Please retry",
	"héllo wörld \xff\xfe invalid",
	"ab", // shorter than a trigram
	"READFULL readfull ReadFull",
}

func TestWriteRead(t *testing.T) {
	f := newFixture(texts...)
	w := NewWriter()
	for i, s := range texts {
		w.Add(f.shas[i], grams(s), false)
	}
	ix := f.write(t, w)
	f.check(t, ix, []int{0, 1, 2, 3, 4})
}

func TestAppendKeeps(t *testing.T) {
	f := newFixture(texts...)
	w := NewWriter()
	for i, s := range texts {
		w.Add(f.shas[i], grams(s), false)
	}
	src := f.write(t, w)
	// Merge: one new document first, then src without texts[1].
	m := NewWriter()
	m.Add(f.shas[3], grams(texts[3]), false)
	drop := f.shas[1]
	err := m.Append(src, func(b int) [20]byte { return f.sorted[b] }, func(sha [20]byte) bool { return sha != drop && sha != f.shas[3] })
	if err != nil {
		t.Fatal(err)
	}
	ix := f.write(t, m)
	f.check(t, ix, []int{3, 0, 2, 4})
}

func TestDamageIsFound(t *testing.T) {
	f := newFixture(texts...)
	data := f.encode(t)
	for _, at := range []int{3, 20, headerSize + 1, len(data) / 2, len(data) - 1} {
		bad := bytes.Clone(data)
		bad[at] ^= 0x40
		ix, err := Parse(bad)
		if err == nil {
			err = ix.Verify()
		}
		if !errors.Is(err, ErrCorrupt) {
			t.Errorf("byte %d flipped: %v, want ErrCorrupt", at, err)
		}
	}
	if _, err := Parse(data[:len(data)-1]); !errors.Is(err, ErrCorrupt) {
		t.Errorf("truncated: %v", err)
	}
}

// TestBinaryDocuments: a binary blob's document holds its trigrams of text
// bytes; a query trigram with another byte holds for every binary
// document. A merge keeps the mark, and a blob marked binary without
// trigrams (a file of the first version) stays a binary blob without a
// document.
func TestBinaryDocuments(t *testing.T) {
	bin := "ELF\x00\x01\x02func ReadAll\xff\xfe"
	all := append(append([]string{}, texts...), bin)
	f := newFixture(all...)
	w := NewWriter()
	for i, s := range all {
		w.Add(f.shas[i], grams(s), i == len(all)-1)
	}
	ix := f.write(t, w)
	b, _ := f.blobIndex(f.shas[len(all)-1])
	d, ok := ix.BlobDoc(b)
	if !ok || !ix.IsBinary(b) {
		t.Fatalf("binary blob: document %d %v, binary %v", d, ok, ix.IsBinary(b))
	}
	if text, _ := f.blobIndex(f.shas[0]); ix.IsBinary(text) {
		t.Fatal("a text blob reads as binary")
	}
	for _, c := range []struct {
		lit  string
		want bool
	}{
		{"ReadAll", true},      // its text trigrams
		{"ReadFull", false},    // not in it
		{"\x01\x02f", true},    // bytes that are not text: any binary document may hold them
		{"\xff\xfe\xfd", true}, // the same
		{"unc Rea\x00", true},  // a trigram of text and one without: both hold
		{"zzz\x00zzz", false},  // "zzz" rules it out whatever the rest
	} {
		q := exact.Query{Op: exact.And}
		for i := 0; i+3 <= len(c.lit); i++ {
			q.Trigrams = append(q.Trigrams, grams(c.lit[i:i+3])...)
		}
		set, err := ix.Candidates(&q)
		if err != nil {
			t.Fatal(err)
		}
		if got := set == nil || set.Test(uint(d)); got != c.want {
			t.Errorf("%q: binary document a candidate: %v, want %v", c.lit, got, c.want)
		}
	}
	// A merge keeps it binary.
	m := NewWriter()
	if err := m.Append(ix, func(b int) [20]byte { return f.sorted[b] }, nil); err != nil {
		t.Fatal(err)
	}
	merged := f.write(t, m)
	if _, ok := merged.BlobDoc(b); !ok || !merged.IsBinary(b) {
		t.Fatal("the merge lost the binary document")
	}
	// A binary blob without trigrams.
	old := NewWriter()
	old.AddBinary(f.shas[len(all)-1])
	oix := f.write(t, old)
	if _, ok := oix.BlobDoc(b); ok || !oix.IsBinary(b) {
		t.Fatal("a binary blob without trigrams has a document, or is not binary")
	}
}

// TestSecondVersion: a file of the second version, whose trigram entries
// are 12 bytes (uint32 trigram, uint64 offset), is still read, checked
// and merged into a file of the current one.
func TestSecondVersion(t *testing.T) {
	f := newFixture(texts...)
	data := toGaps(t, f.encode(t))
	// Rewrite the entries 12 bytes wide under the old magic.
	h := data[:headerSize]
	docs, blobs, ngrams := binary.LittleEndian.Uint32(h[8:]), binary.LittleEndian.Uint32(h[12:]), binary.LittleEndian.Uint32(h[16:])
	start := headerSize + 4*int(docs) + 4*int(blobs)
	old := append([]byte(nil), data[:start]...)
	for i := 0; i <= int(ngrams); i++ {
		e := binary.LittleEndian.Uint64(data[start+entrySize*i:])
		g := uint32(e & 0xffffff)
		if i == int(ngrams) {
			g = 0xffffffff
		}
		old = binary.LittleEndian.AppendUint32(old, g)
		old = binary.LittleEndian.AppendUint64(old, e>>24)
	}
	old = append(old, data[start+entrySize*(int(ngrams)+1):]...)
	if len(old) != len(data)+4*(int(ngrams)+1) {
		t.Fatalf("rewritten file of %d bytes from %d", len(old), len(data))
	}
	copy(old, magicV2)
	binary.LittleEndian.PutUint32(old[32:], checksum.Sum(old[headerSize:]))
	binary.LittleEndian.PutUint32(old[60:], checksum.Sum(old[:60]))
	path := filepath.Join(t.TempDir(), "grams.bin")
	if err := os.WriteFile(path, old, 0o644); err != nil {
		t.Fatal(err)
	}
	ix, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if err := ix.Verify(); err != nil {
		t.Fatal(err)
	}
	f.check(t, ix, []int{0, 1, 2, 3, 4})
	m := NewWriter()
	if err := m.Append(ix, func(b int) [20]byte { return f.sorted[b] }, nil); err != nil {
		t.Fatal(err)
	}
	merged := f.write(t, m)
	if string(merged.data[:8]) != magic {
		t.Fatalf("merged into %q", merged.data[:8])
	}
	f.check(t, merged, []int{0, 1, 2, 3, 4})
}

// toGaps rewrites a file of the current version as one of the fourth,
// whose postings are a uvarint gap per document.
func toGaps(t *testing.T, data []byte) []byte {
	t.Helper()
	ix, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	start := headerSize + 4*ix.docs + 4*ix.blobs
	out := append([]byte(nil), data[:start]...)
	var post []byte
	for i := 0; i < ix.grams; i++ {
		out = binary.LittleEndian.AppendUint64(out, uint64(len(post))<<24|uint64(ix.gram(i)))
		docs, err := ix.appendList(nil, i)
		if err != nil {
			t.Fatal(err)
		}
		prev := int64(-1)
		for _, d := range docs {
			post = binary.AppendUvarint(post, uint64(int64(d)-prev-1))
			prev = int64(d)
		}
	}
	out = binary.LittleEndian.AppendUint64(out, uint64(len(post))<<24|sentinelGram)
	out = append(out, post...)
	copy(out, magicV4)
	binary.LittleEndian.PutUint64(out[24:], uint64(len(post)))
	binary.LittleEndian.PutUint32(out[32:], checksum.Sum(out[headerSize:]))
	binary.LittleEndian.PutUint32(out[60:], checksum.Sum(out[:60]))
	return out
}
