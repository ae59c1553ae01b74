package storewrite

import (
	"errors"
	"slices"
	"strings"
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
		if err := s.DeleteSegmentVectors([]string{"00000001"}, []string{"00000002"}); err != nil {
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

// TestRewriteLogRelocatesPastAFailure: when one segment's locator cannot be
// pointed at its parts' new places (here its parts are gone from the
// database), the rewrite still relocates the segments after it and says
// which failed. The rewritten log file goes all the same, so the failing
// segment's vectors are found gone when it is opened (the segment is
// damaged, never served), and the others read their own vectors.
func TestRewriteLogRelocatesPastAFailure(t *testing.T) {
	indexDir := t.TempDir()
	ids := []string{"00000001", "00000002", "00000003"}
	putLocatedSegments(t, indexDir, ids...) // one log file
	before := logFiles(indexDir)
	s, err := OpenStore(indexDir)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteSegmentVectors(ids[1:2], nil); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	n, err := RewriteLog(indexDir, ids)
	if err == nil || !strings.Contains(err.Error(), "rewrite index log") || !strings.Contains(err.Error(), ids[1]) {
		t.Fatalf("rewrite with segment %s's parts gone: %d files rewritten, error %v; want one naming the rewrite and the segment", ids[1], n, err)
	}
	if n == 0 || slices.Contains(logFiles(indexDir), before[0]) {
		t.Fatalf("setup: %d files rewritten, log files %v, were %v", n, logFiles(indexDir), before)
	}
	name := segment.VectorFileName("test-model")
	for _, id := range ids {
		v, err := segment.OpenSegmentVectors(indexDir, id, name)
		if id == ids[1] {
			if !errors.Is(err, segment.ErrLogGone) {
				t.Errorf("segment %s, not relocated: open gave %v, want segment.ErrLogGone", id, err)
			}
			if err == nil {
				v.Close()
			}
			continue
		}
		if err != nil {
			t.Errorf("segment %s after the failed rewrite: %v", id, err)
			continue
		}
		if err := v.Verify(); err != nil || v.Len() != 2000 {
			t.Errorf("segment %s after the failed rewrite: %d rows, %v", id, v.Len(), err)
		}
		v.Close()
	}
}
