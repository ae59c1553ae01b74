package storewrite

import (
	"testing"

	"github.com/bcindex/bcindex/segment"
	"github.com/bcindex/bcindex/vector"
)

// putSegment writes one segment's vector parts in a session of its own (so
// in a value-log file of its own) and closes the store.
func putSegment(t *testing.T, indexDir, seg string) {
	t.Helper()
	s, err := OpenStore(indexDir)
	if err != nil {
		t.Fatal(err)
	}
	const dim, rows = 16, 400
	q := make([][]int8, rows)
	scales := make([]float32, rows)
	for i := range q {
		q[i] = make([]int8, dim)
		q[i][i%dim] = 1
		scales[i] = 0.01
	}
	parts, err := vector.EncodeParts(dim, q, scales, MinPart)
	if err != nil {
		t.Fatal(err)
	}
	b := s.NewBatch()
	if err := b.PutVectorParts(seg, segment.VectorFileName("test-model"), parts); err != nil {
		t.Fatal(err)
	}
	if err := b.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestRewriteLogAfterDelete: once a session deleted a segment's vectors,
// RewriteLog rewrites the log file that held them, with no compaction
// asked for before (it compacts the tree itself) and every time (the
// discard timestamp is set, not read from Badger's read watermark).
func TestRewriteLogAfterDelete(t *testing.T) {
	for i := 0; i < 3; i++ {
		indexDir := t.TempDir()
		putSegment(t, indexDir, "00000001")
		putSegment(t, indexDir, "00000002")
		s, err := OpenStore(indexDir)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.DeleteSegmentVectors([]string{"00000001"}); err != nil {
			t.Fatal(err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		n, err := RewriteLog(indexDir, []string{"00000002"})
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			t.Fatalf("run %d: no log file rewritten after a segment's vectors were deleted", i)
		}
	}
}
