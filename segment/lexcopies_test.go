package segment_test

import (
	"reflect"
	"slices"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/lexical"
	"github.com/bcindex/bcindex/segment"
)

// copyTexts are the chunk texts of TestPostingsOncePerContent, by the
// first byte of their hash.
var copyTexts = map[byte]string{7: "alpha retry retry", 8: "beta backoff", 9: "gamma retry jitter"}

// chunk is a row of copyBlob: its text (0: none of its own) and name.
type chunk struct {
	text byte
	name string
}

// rowTokens are a row's terms as the indexer makes them: its name's
// tokens, then its text's.
func rowTokens(name string, text byte) []string {
	return lexical.AppendTokens(lexical.Tokens(name), copyTexts[text])
}

// copyBlob adds a blob whose rows after the file row are chunks.
func copyBlob(t *testing.T, w *segment.Writer, sha byte, chunks ...chunk) {
	t.Helper()
	rows := []segment.Row{{Kind: "file", Parent: -1}}
	toks := [][]string{nil}
	for _, c := range chunks {
		r := segment.Row{Kind: "block", Parent: 0, Name: c.name}
		var tk []string
		if c.text != 0 {
			r.Indexed, r.Hash, tk = true, [16]byte{c.text, 1}, rowTokens(c.name, c.text)
		}
		rows = append(rows, r)
		toks = append(toks, tk)
	}
	if err := w.Add([20]byte{sha}, segment.BlobInfo{Size: 10}, rows, toks, nil, false, segment.Stored{}); err != nil {
		t.Fatal(err)
	}
}

// checkPostings checks segment id: only rows that are their own first
// copy have postings, each its content's, and every row with text has
// its own content's length.
func checkPostings(t *testing.T, indexDir, id string) *segment.Segment {
	t.Helper()
	seg, err := segment.Open(indexDir, id, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(seg.Close)
	if err := seg.Lex.Verify(); err != nil {
		t.Fatal(err)
	}
	want := map[string][][2]int{}
	for r := 0; r < seg.Rows(); r++ {
		h, indexed := seg.RowHash(r)
		if !indexed {
			continue
		}
		toks := rowTokens(seg.Row(r).Name, h[0])
		if got := seg.Lex.DocLen(r); got != len(toks) {
			t.Errorf("segment %s row %d: length %d, want %d", id, r, got, len(toks))
		}
		if seg.FirstCopy(r) != r {
			continue
		}
		for _, tok := range toks {
			if n := len(want[tok]); n > 0 && want[tok][n-1][0] == r {
				want[tok][n-1][1]++
			} else {
				want[tok] = append(want[tok], [2]int{r, 1})
			}
		}
	}
	for _, tok := range []string{"alpha", "beta", "gamma", "retry", "backoff", "jitter", "if", "10", "l10", "30", "l30", "loop"} {
		var got [][2]int
		it := seg.Lex.Iter(tok)
		for it.Next() {
			got = append(got, [2]int{it.Row(), it.Freq()})
		}
		if !reflect.DeepEqual(got, want[tok]) {
			t.Errorf("segment %s: %q posted in (row, tf) %v, want %v (first copies only)", id, tok, got, want[tok])
		}
	}
	return seg
}

// TestPostingsOncePerContent: a segment holding two versions of a file
// that share chunks stores the postings of each content once, under its
// first copy, the copies keeping their lengths. Merged, the postings
// follow the merged segment's copies: the rows of the newer version
// become first copies when the older is dropped and take its postings
// over, with their own name's tokens in place of the dropped row's; a
// row whose content an earlier segment of the merge holds becomes a copy
// and gives its postings up.
func TestPostingsOncePerContent(t *testing.T) {
	indexDir := t.TempDir()
	w := segment.NewWriter(0)
	// Rows 0-2, the older version, then rows 3-7, the newer, where B and
	// A are copies, A moved down (its name, with its line, changed).
	copyBlob(t, w, 1, chunk{7, "if@L10"}, chunk{8, "B"})
	copyBlob(t, w, 2, chunk{8, "B"}, chunk{9, "C"}, chunk{0, "D"}, chunk{7, "if@L30"})
	if err := w.WriteFiles(segment.Dir(indexDir, "00000001")); err != nil {
		t.Fatal(err)
	}
	seg := checkPostings(t, indexDir, "00000001")
	if got := []int{seg.FirstCopy(4), seg.FirstCopy(7)}; !slices.Equal(got, []int{2, 1}) {
		t.Fatalf("first copies of the newer version's B and A: %v, want [2 1]", got)
	}
	if it := seg.Lex.Iter("backoff"); it.Len() != 1 {
		t.Errorf("backoff in %d rows, want 1 (its copy has none)", it.Len())
	}

	// The older version dropped: the newer one's B and A are first copies.
	m := segment.NewWriter(0)
	older := plumbing.Hash([20]byte{1})
	if err := m.Append(indexDir, "00000001", nil, func(h plumbing.Hash) bool { return h != older }, nil); err != nil {
		t.Fatal(err)
	}
	if err := m.WriteFiles(segment.Dir(indexDir, "00000002")); err != nil {
		t.Fatal(err)
	}
	seg = checkPostings(t, indexDir, "00000002")
	if seg.Rows() != 5 || seg.FirstCopy(1) != 1 || seg.FirstCopy(4) != 4 {
		t.Fatalf("%d rows, first copies %d %d; want 5 rows, B and A their own", seg.Rows(), seg.FirstCopy(1), seg.FirstCopy(4))
	}

	// Ahead of a segment holding C and A: they become copies there.
	m = segment.NewWriter(0)
	copyBlob(t, m, 3, chunk{9, "C"}, chunk{7, "loop@L10"})
	if err := m.Append(indexDir, "00000001", nil, nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := m.WriteFiles(segment.Dir(indexDir, "00000003")); err != nil {
		t.Fatal(err)
	}
	seg = checkPostings(t, indexDir, "00000003")
	if it := seg.Lex.Iter("alpha"); it.Len() != 1 || seg.Rows() != 3+8 || seg.FirstCopy(4) != 2 {
		t.Errorf("alpha in %d rows of %d, the older A a copy of row %d; want 1 of 11, a copy of row 2", it.Len(), seg.Rows(), seg.FirstCopy(4))
	}
}
