package segment_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/ngram"
	"github.com/bcindex/bcindex/segment"
)

// TestCheckPiecesAgree: Check passes a segment whose large blob is stored
// in the pieces its trigram file indexes, and merging keeps them; a
// segment whose trigram file indexes another number of pieces fails it.
func TestCheckPiecesAgree(t *testing.T) {
	var b strings.Builder
	for i := range 40000 {
		fmt.Fprintf(&b, "line %d of a large text blob\n", i)
	}
	text := []byte(b.String())
	ends := ngram.Bounds(text)
	pieces := ngram.Pieces(text, ends)
	indexDir := t.TempDir()
	writeIn := func(id string, indexed [][]uint32) {
		w := segment.NewWriter(0)
		sha := [20]byte{7}
		rows := []segment.Row{{Kind: "file", Parent: -1}}
		if err := w.Add(sha, segment.BlobInfo{Size: int64(len(text))}, rows, [][]string{nil}, ngram.Union(pieces), false, segment.StoreText(text, ends)); err != nil {
			t.Fatal(err)
		}
		if err := w.Grams.AddPieces(sha, indexed); err != nil {
			t.Fatal(err)
		}
		if err := w.WriteFiles(segment.Dir(indexDir, id)); err != nil {
			t.Fatal(err)
		}
	}
	writeIn("00000001", pieces)
	if _, err := segment.Check(indexDir, "00000001"); err != nil {
		t.Fatalf("pieces that agree: %v", err)
	}
	m := segment.NewWriter(0)
	if err := m.Append(indexDir, "00000001", nil, nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := m.WriteFiles(segment.Dir(indexDir, "00000002")); err != nil {
		t.Fatal(err)
	}
	if _, err := segment.Check(indexDir, "00000002"); err != nil {
		t.Fatalf("merged: %v", err)
	}
	c, err := segment.OpenContent(segment.File(indexDir, "00000002", segment.ContentFile))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if n := c.PieceCount(0); n != len(ends) {
		t.Fatalf("merged blob stored in %d pieces, want %d", n, len(ends))
	}
	writeIn("00000003", pieces[:len(pieces)-1])
	if _, err := segment.Check(indexDir, "00000003"); err == nil || !strings.Contains(err.Error(), "indexed in") {
		t.Fatalf("pieces that disagree: %v", err)
	}
}
