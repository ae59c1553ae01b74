package segment_test

import (
	"testing"

	"github.com/bcindex/bcindex/lexical"
	"github.com/bcindex/bcindex/segment"
)

// TestAppendSegmentEndingWithoutText: a segment whose last rows have no
// text (an empty file last) holds postings for fewer rows than its table;
// merging it copies every row, and its postings land on the rows they
// belonged to.
func TestAppendSegmentEndingWithoutText(t *testing.T) {
	indexDir := t.TempDir()
	w := segment.NewWriter(0)
	rows := []segment.Row{{Kind: "file", Parent: -1}, {Kind: "function", Parent: 0, Indexed: true, Name: "Retry"}}
	if err := w.Add([20]byte{1}, segment.BlobInfo{Size: 30}, rows, [][]string{nil, {"retry", "backoff"}}, nil, false, segment.Stored{}); err != nil {
		t.Fatal(err)
	}
	empty := []segment.Row{{Kind: "file", Parent: -1}}
	if err := w.Add([20]byte{2}, segment.BlobInfo{Size: 0}, empty, [][]string{nil}, nil, false, segment.Stored{}); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteFiles(segment.Dir(indexDir, "00000001")); err != nil {
		t.Fatal(err)
	}

	m := segment.NewWriter(0)
	if err := m.Add([20]byte{3}, segment.BlobInfo{Size: 10}, []segment.Row{{Kind: "file", Parent: -1, Indexed: true}}, [][]string{{"first"}}, nil, false, segment.Stored{}); err != nil {
		t.Fatal(err)
	}
	if err := m.Append(indexDir, "00000001", nil, nil, nil); err != nil {
		t.Fatalf("merge a segment ending with a row without text: %v", err)
	}
	if m.Rows() != 4 || m.Blobs() != 3 {
		t.Fatalf("merged %d rows of %d blobs, want 4 of 3", m.Rows(), m.Blobs())
	}
	if err := m.WriteFiles(segment.Dir(indexDir, "00000002")); err != nil {
		t.Fatal(err)
	}
	lex, err := lexical.Open(segment.File(indexDir, "00000002", segment.LexFile))
	if err != nil {
		t.Fatal(err)
	}
	defer lex.Close()
	it := lex.Postings("backoff")
	var got []int
	for it.Next() {
		got = append(got, it.Row())
	}
	if len(got) != 1 || got[0] != 2 {
		t.Fatalf("backoff in rows %v of the merged segment, want [2]", got)
	}
}
