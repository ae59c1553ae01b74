package ngram

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestRunsRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const docs = 300
	for n := 0; n < 200; n++ {
		var list []uint32
		for d := uint32(0); d < docs; d++ {
			// Runs and single documents, dense and sparse.
			if r.IntN(4) < n%4+1 {
				list = append(list, d)
			}
		}
		b := appendRuns(nil, list)
		got, ok := decodeRuns(nil, b, docs)
		if !ok || !slices.Equal(got, list) {
			t.Fatalf("list %v: decoded %v %v", list, got, ok)
		}
		if len(list) > 0 {
			if _, ok := decodeRuns(nil, b, int(list[len(list)-1])); ok {
				t.Fatalf("list %v decodes within %d documents", list, list[len(list)-1])
			}
		}
	}
	for _, bad := range [][]byte{{0x80}, {0x01}, {0x03, 0x80}, {0x01, 0xff, 0xff, 0xff, 0xff, 0x0f}} {
		if got, ok := decodeRuns(nil, bad, docs); ok {
			t.Errorf("% x decodes to %v", bad, got)
		}
	}
}

// versions is a history's blobs: versions of three files, each a small
// edit of the one before, added in commit order, so that one file's
// versions are far apart.
func versions() []string {
	var out []string
	base := []string{
		"func ReadFull(r Reader, buf []byte) (n int, err error) { return ReadAtLeast(r, buf, len(buf)) }",
		"static int xdl_trim_ends(xdfile_t *xdf1, xdfile_t *xdf2) { long i, lim; char const *p; }",
		"Transaction Conflict. Please retry the operation after a short wait; the lock is held.",
	}
	for v := 0; v < 12; v++ {
		for f, b := range base {
			out = append(out, fmt.Sprintf("%s // version %d of %d %s", b, v, f, strings.Repeat("y", v)))
		}
	}
	return out
}

// TestVersionsBecomeRuns: a file's versions get neighbouring documents, so
// the trigrams they share are one run each and the postings shrink; the
// file still answers every lookup, its bytes depend on its contents only,
// and a file of the fourth version, a gap per document, reads the same.
func TestVersionsBecomeRuns(t *testing.T) {
	texts := versions()
	f := newFixture(texts...)
	all := make([]int, len(texts))
	for i := range all {
		all[i] = i
	}
	data := f.encode(t)
	if again := f.encode(t); !bytes.Equal(data, again) {
		t.Fatal("two encodings of the same documents differ")
	}
	ix := f.write(t, writerOf(f))
	f.check(t, ix, all)
	for _, text := range []string{"ReadFull", "xdl_trim", "Please"} {
		docs, err := ix.Lookup(grams(text)[0])
		if err != nil {
			t.Fatal(err)
		}
		if len(docs) != 12 || docs[11]-docs[0] != 11 {
			t.Errorf("%q: documents %v, want one run of 12", text, docs)
		}
	}
	gaps := toGaps(t, data)
	old, err := Parse(gaps)
	if err != nil {
		t.Fatal(err)
	}
	if err := old.Verify(); err != nil {
		t.Fatal(err)
	}
	f.check(t, old, all)
	if len(data) >= len(gaps) {
		t.Errorf("runs take %d bytes, gaps %d", len(data), len(gaps))
	}
}

func writerOf(f *fixture) *Writer {
	w := NewWriter()
	for i, s := range f.texts {
		w.Add(f.shas[i], grams(s), false)
	}
	return w
}
