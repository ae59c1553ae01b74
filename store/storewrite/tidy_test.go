package storewrite

import (
	"path/filepath"
	"testing"

	"github.com/bcindex/bcindex/segment"
	"github.com/bcindex/bcindex/store"
	"github.com/bcindex/bcindex/vector"
)

// putLocatedSegment writes one segment's vectors (one part of 136 KB) in a
// session of its own, as an indexing run does: stored, located, and
// named by the segment's locator.
func putLocatedSegment(t *testing.T, indexDir, seg string) {
	t.Helper()
	s, err := OpenStore(indexDir)
	if err != nil {
		t.Fatal(err)
	}
	const dim, rows = 64, 2000
	q := make([][]int8, rows)
	scales := make([]float32, rows)
	for i := range q {
		q[i] = make([]int8, dim)
		q[i][i%dim] = int8(1 + len(seg)%7)
		scales[i] = 0.01
	}
	parts, err := vector.EncodeParts(dim, q, scales, MinPart)
	if err != nil {
		t.Fatal(err)
	}
	name := segment.VectorFileName("test-model")
	b := s.NewBatch()
	if err := b.PutVectorParts(seg, name, parts); err != nil {
		t.Fatal(err)
	}
	if err := b.Flush(); err != nil {
		t.Fatal(err)
	}
	locs, err := s.LocateVectorParts(seg, name, parts, []int64{vector.EncodedSize(dim, rows)})
	if err != nil {
		t.Fatal(err)
	}
	if err := segment.WriteLocator(segment.Dir(indexDir, seg), name, dim, rows, locs); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestTidyLogReclaimsMergedVectors: a value log of few files is left alone
// while it holds little but the live vectors, and rewritten once most of
// it is vectors of deleted segments (as merges leave it), down to about
// the live vectors, which stay readable where their locator says.
func TestTidyLogReclaimsMergedVectors(t *testing.T) {
	defer func(floor int64) { logDeadFloor = floor }(logDeadFloor)
	logDeadFloor = 64 << 10
	indexDir := t.TempDir()
	ids := []string{"00000001", "00000002", "00000003", "00000004"}
	for _, id := range ids {
		putLocatedSegment(t, indexDir, id)
	}
	files := func() int {
		names, _ := filepath.Glob(filepath.Join(indexDir, "db", "*.vlog"))
		return len(names)
	}
	before := files()
	if n, err := TidyLog(indexDir, ids); err != nil || n != 0 || files() != before {
		t.Fatalf("a log of live vectors: %d files rewritten (%v), %d log files, was %d", n, err, files(), before)
	}

	s, err := OpenStore(indexDir)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteSegmentVectors(ids[:3]); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	live := ids[3:]
	_, liveBytes := store.VectorBytes(indexDir, live)
	if dead := store.LogBytes(indexDir) - liveBytes; dead < 2*liveBytes {
		t.Fatalf("setup: %d dead log bytes beside %d live", dead, liveBytes)
	}
	n, err := TidyLog(indexDir, live)
	if err != nil || n == 0 {
		t.Fatalf("a mostly dead log: %d files rewritten (%v)", n, err)
	}
	if dead := store.LogBytes(indexDir) - liveBytes; dead > liveBytes/2 {
		t.Errorf("after the rewrite the log holds %d bytes beside %d live", dead, liveBytes)
	}
	v, err := segment.OpenSegmentVectors(indexDir, live[0], segment.VectorFileName("test-model"))
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	if err := v.Verify(); err != nil || v.Len() != 2000 {
		t.Fatalf("live vectors after the rewrite: %d rows, %v", v.Len(), err)
	}
}
