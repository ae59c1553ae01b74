package segment_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/bcindex/bcindex/segment"
	"github.com/bcindex/bcindex/store/storewrite"
	"github.com/bcindex/bcindex/vector"
)

// TestWrittenPartsStayVerified: the vector parts of every segment a
// session wrote are recorded as verified once the store is closed, also
// when several segments' parts share a log file (the page refresh of one
// must not leave another's record stale), so that the first query reads
// none of them again.
func TestWrittenPartsStayVerified(t *testing.T) {
	indexDir := t.TempDir()
	s, err := storewrite.OpenStore(indexDir)
	if err != nil {
		t.Fatal(err)
	}
	const dim, rows = 16, 100
	name := segment.VectorFileName("test-model")
	segs := []string{"00000001", "00000002", "00000003"}
	for k, seg := range segs {
		q := make([][]int8, rows)
		scales := make([]float32, rows)
		for i := range q {
			q[i] = make([]int8, dim)
			q[i][i%dim] = int8(k + 1)
			scales[i] = 0.01
		}
		parts, err := vector.EncodeParts(dim, q, scales, storewrite.MinPart)
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
		dir := filepath.Join(indexDir, "segments", seg)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := segment.WriteLocator(dir, name, &segment.Locator{Dim: dim, Rows: rows, Parts: locs}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	for _, seg := range segs {
		dir := filepath.Join(indexDir, "segments", seg)
		l, err := segment.ReadLocator(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		st := segment.LoadStamps(dir)
		for i, r := range l.Regions(indexDir) {
			if !st.VerifiedAs(segment.PartStampKey(name, i), segment.RegionIdentity(r)) {
				t.Errorf("segment %s part %d: not recorded as verified for its log file's version after the session", seg, i)
			}
		}
	}
}
