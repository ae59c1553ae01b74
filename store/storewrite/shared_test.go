package storewrite

import (
	"slices"
	"testing"

	"github.com/bcindex/bcindex/segment"
)

// TestSharedPartsOutliveTheirSegment: a part that a live segment's locator
// names stays in the store when its own segment is dropped, moves with
// its log file's rewrite, and the sharing segment's locator follows it to
// the same vectors; the dropped segments' other parts go.
func TestSharedPartsOutliveTheirSegment(t *testing.T) {
	indexDir := t.TempDir()
	putLocatedSegments(t, indexDir, "00000001", "00000002") // one log file
	name := segment.VectorFileName("test-model")
	own, err := segment.ReadLocator(segment.File(indexDir, "00000001", name))
	if err != nil {
		t.Fatal(err)
	}
	// Segment 3 stores nothing of its own: it shares segment 1's part.
	if err := segment.WriteLocator(segment.Dir(indexDir, "00000003"), name, own); err != nil {
		t.Fatal(err)
	}
	want := rowsOf(t, indexDir, "00000001", name)
	before := logFiles(indexDir)
	s, err := OpenStore(indexDir)
	if err != nil {
		t.Fatal(err)
	}
	live := []string{"00000003"}
	if err := s.DeleteSegmentVectors([]string{"00000001", "00000002"}, live); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if n, err := RewriteLog(indexDir, live); err != nil || n == 0 || slices.Contains(logFiles(indexDir), before[0]) {
		t.Fatalf("rewrite: %d files rewritten (%v), log files %v, were %v", n, err, logFiles(indexDir), before)
	}
	moved, err := segment.ReadLocator(segment.File(indexDir, "00000003", name))
	if err != nil {
		t.Fatal(err)
	}
	if moved.Parts[0].Owner != "00000001" || moved.Parts[0].Fid == own.Parts[0].Fid {
		t.Fatalf("shared part not relocated: %+v, was %+v", moved.Parts[0], own.Parts[0])
	}
	if got := rowsOf(t, indexDir, "00000003", name); !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatal("the shared part's vectors changed with its move")
	}
	s, err = OpenStore(indexDir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	named := namedParts(indexDir, live)
	if !named[string(partKey("00000001", name, 0))] || len(named) != 1 {
		t.Fatalf("live locators name %v", named)
	}
	if n, err := s.DeleteOrphanVectors(live); err != nil || n != 0 {
		t.Fatalf("orphans deleted: %d vectors (%v); the shared part must stay and segment 2's be gone", n, err)
	}
}

// rowsOf reads every stored vector of a segment's named vector file.
func rowsOf(t *testing.T, indexDir, id, name string) [][]int8 {
	t.Helper()
	v, err := segment.OpenSegmentVectors(indexDir, id, name)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	if err := v.Verify(); err != nil {
		t.Fatal(err)
	}
	var out [][]int8
	for i := 0; i < v.Stored(); i++ {
		q, _ := v.Row(i)
		out = append(out, q)
	}
	return out
}
