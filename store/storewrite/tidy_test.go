package storewrite

import (
	"fmt"
	"path/filepath"
	"slices"
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
	putLocatedSegments(t, indexDir, seg)
}

// putLocatedSegments writes the vectors of segments segs (one part of
// 136 KB each) in one session, so in one log file.
func putLocatedSegments(t *testing.T, indexDir string, segs ...string) {
	t.Helper()
	s, err := OpenStore(indexDir)
	if err != nil {
		t.Fatal(err)
	}
	const dim, rows = 64, 2000
	name := segment.VectorFileName("test-model")
	for _, seg := range segs {
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
		if err := segment.WriteLocator(segment.Dir(indexDir, seg), name, &segment.Locator{Dim: dim, Rows: rows, Parts: locs}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}

// putLogRecords writes n records of size bytes under "b/" keys, values
// Badger keeps in its log, as it does the blob records of files of very
// many chunks.
func putLogRecords(t *testing.T, indexDir string, n, size int) {
	t.Helper()
	s, err := OpenStore(indexDir)
	if err != nil {
		t.Fatal(err)
	}
	b := s.NewBatch()
	for i := 0; i < n; i++ {
		v := make([]byte, size)
		v[i%size] = byte(i)
		if err := b.Put([]byte(fmt.Sprintf("b/%08d", i)), v); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}

func logFiles(indexDir string) []string {
	names, _ := filepath.Glob(filepath.Join(indexDir, "db", "*.vlog"))
	return names
}

// TestTidyLogReclaimsMergedVectors: a value log that holds only live
// values, vectors and large records (more than the vectors, and more
// than a third of the log), is left alone; once most of it is vectors of
// deleted segments (as merges leave it) it is rewritten, down to about
// the live values, and the live vectors stay readable where their locator
// says.
func TestTidyLogReclaimsMergedVectors(t *testing.T) {
	defer func(floor int64) { TidyFloor = floor }(TidyFloor)
	TidyFloor = 64 << 10
	indexDir := t.TempDir()
	ids := []string{"00000001", "00000002", "00000003", "00000004", "00000005", "00000006"}
	for _, id := range ids[:3] {
		putLocatedSegment(t, indexDir, id)
	}
	putLogRecords(t, indexDir, 60, 12<<10)
	for _, id := range ids[3:] {
		putLocatedSegment(t, indexDir, id)
	}
	live := ids[5:]

	_, vectors := store.VectorBytes(indexDir, ids)
	logBytes := store.LogBytes(indexDir)
	records, err := LogRecordBytes(indexDir)
	if err != nil {
		t.Fatal(err)
	}
	if records < 60*12<<10 || records > 60*13<<10 {
		t.Errorf("records in the log: %d bytes, want 60 of 12 KB", records)
	}
	// Counted as dead, the records would make a rewrite: the check
	// below fails for a trigger that does.
	if beyond := logBytes - vectors; beyond <= TidyFloor || float64(beyond) <= tidyShare*float64(logBytes) {
		t.Fatalf("setup: %d log bytes beyond %d of vectors, of %d", beyond, vectors, logBytes)
	}
	before := logFiles(indexDir)
	if dead, err := DeadLogBytes(indexDir, ids, TidyFloor); err != nil || dead > TidyFloor {
		t.Errorf("a log of live values: %d dead bytes (%v)", dead, err)
	}
	if n, err := TidyLog(indexDir, ids); err != nil || n != 0 || !slices.Equal(logFiles(indexDir), before) {
		t.Fatalf("a log of live values: %d files rewritten (%v), log files %v, were %v", n, err, logFiles(indexDir), before)
	}

	s, err := OpenStore(indexDir)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteSegmentVectors(ids[:5], ids[5:]); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	_, liveBytes := store.VectorBytes(indexDir, live)
	dead, err := DeadLogBytes(indexDir, live, TidyFloor)
	if err != nil || dead < 2*liveBytes {
		t.Fatalf("setup: %d dead log bytes beside %d live (%v)", dead, liveBytes, err)
	}
	n, err := TidyLog(indexDir, live)
	if err != nil || n == 0 {
		t.Fatalf("a mostly dead log: %d files rewritten (%v)", n, err)
	}
	if dead, err := DeadLogBytes(indexDir, live, 0); err != nil || float64(dead) > tidyShare*float64(store.LogBytes(indexDir)) {
		t.Errorf("after the rewrite the log of %d bytes holds %d dead (%v)", store.LogBytes(indexDir), dead, err)
	}
	if got, err := LogRecordBytes(indexDir); err != nil || got != records {
		t.Errorf("records in the log after the rewrite: %d bytes (%v), were %d", got, err, records)
	}
	after := logFiles(indexDir)
	if n, err := TidyLog(indexDir, live); err != nil || n != 0 || !slices.Equal(logFiles(indexDir), after) {
		t.Errorf("a tidied log: %d files rewritten again (%v)", n, err)
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

// TestTidyLogPastALargeFileLittleDead: the log file with the most dead
// bytes is a large one little of which is dead (the vectors of segments a
// merge replaced beside many live ones), and the smaller files are wholly
// dead. Badger's rewrite takes the file with the most dead bytes first and
// stops when its dead share is below the ratio asked: the tidy must still
// reclaim the dead files, and the log end with about the live vectors.
func TestTidyLogPastALargeFileLittleDead(t *testing.T) {
	defer func(floor int64) { TidyFloor = floor }(TidyFloor)
	TidyFloor = 64 << 10
	indexDir := t.TempDir()
	var big []string
	for i := 1; i <= 10; i++ {
		big = append(big, fmt.Sprintf("%08d", i))
	}
	putLocatedSegments(t, indexDir, big...) // one file: 8 live, 2 dead
	small := []string{"00000011", "00000012", "00000013", "00000014"}
	for _, id := range small {
		putLocatedSegment(t, indexDir, id) // a file each, all dead
	}
	live := big[:8]
	s, err := OpenStore(indexDir)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteSegmentVectors(append(append([]string(nil), big[8:]...), small...), live); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	_, liveBytes := store.VectorBytes(indexDir, live)
	logBytes := store.LogBytes(indexDir)
	dead, err := DeadLogBytes(indexDir, live, 0)
	if err != nil || float64(dead) <= tidyShare*float64(logBytes) {
		t.Fatalf("setup: %d dead of %d log bytes (%v)", dead, logBytes, err)
	}
	n, err := TidyLog(indexDir, live)
	if err != nil || n == 0 {
		t.Fatalf("a log a third dead: %d files rewritten (%v)", n, err)
	}
	// What is left beyond the live vectors is Badger's own framing.
	if after := store.LogBytes(indexDir); after > liveBytes+liveBytes/10+4<<10 {
		t.Errorf("after the rewrite the log holds %d bytes for %d of live vectors (was %d)", after, liveBytes, logBytes)
	}
	for _, id := range live {
		v, err := segment.OpenSegmentVectors(indexDir, id, segment.VectorFileName("test-model"))
		if err != nil {
			t.Fatal(err)
		}
		if err := v.Verify(); err != nil || v.Len() != 2000 {
			t.Errorf("segment %s after the rewrite: %d rows, %v", id, v.Len(), err)
		}
		v.Close()
	}
}

// TestReclaimLogPastTheFloor: a log less than a third of which is dead,
// though more than the floor, is left alone by TidyLog and rewritten by
// ReclaimLog, down to less than the floor dead, its live vectors
// readable.
func TestReclaimLogPastTheFloor(t *testing.T) {
	defer func(floor int64) { TidyFloor = floor }(TidyFloor)
	TidyFloor = 64 << 10
	indexDir := t.TempDir()
	ids := []string{"00000001", "00000002", "00000003", "00000004", "00000005", "00000006"}
	putLocatedSegments(t, indexDir, ids...)
	s, err := OpenStore(indexDir)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteSegmentVectors(ids[:1], ids[1:]); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	live := ids[1:]
	logBytes := store.LogBytes(indexDir)
	dead, err := DeadLogBytes(indexDir, live, 0)
	if err != nil || dead <= TidyFloor || float64(dead) >= tidyShare*float64(logBytes) {
		t.Fatalf("setup: %d dead bytes of a log of %d (%v)", dead, logBytes, err)
	}
	before := logFiles(indexDir)
	if n, err := TidyLog(indexDir, live); err != nil || n != 0 || !slices.Equal(logFiles(indexDir), before) {
		t.Fatalf("TidyLog: %d files rewritten (%v)", n, err)
	}
	if n, err := ReclaimLog(indexDir, live); err != nil || n == 0 {
		t.Fatalf("ReclaimLog: %d files rewritten (%v)", n, err)
	}
	if left, err := DeadLogBytes(indexDir, live, 0); err != nil || left > TidyFloor {
		t.Errorf("after ReclaimLog %d of %d log bytes are dead (%v)", left, store.LogBytes(indexDir), err)
	}
	for _, id := range live {
		v, err := segment.OpenSegmentVectors(indexDir, id, segment.VectorFileName("test-model"))
		if err != nil {
			t.Fatal(err)
		}
		if err := v.Verify(); err != nil || v.Len() != 2000 {
			t.Errorf("segment %s after the rewrite: %d rows, %v", id, v.Len(), err)
		}
		v.Close()
	}
}
