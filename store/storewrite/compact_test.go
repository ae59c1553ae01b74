package storewrite

import (
	"errors"
	"slices"
	"testing"

	"github.com/dgraph-io/badger/v4"

	"github.com/bcindex/bcindex/segment"
	"github.com/bcindex/bcindex/store"
)

// sharingLocators writes segments 2 and 3, which store nothing and share
// segment 1's part (2,000 vectors): 2 uses its even rows below 1,000, 3
// its rows 1,000 to 1,499. Segment 1 is then dropped: half its part is
// dead.
func sharingLocators(t *testing.T, indexDir, name string) {
	t.Helper()
	putLocatedSegments(t, indexDir, "00000001")
	own, err := segment.ReadLocator(segment.File(indexDir, "00000001", name))
	if err != nil {
		t.Fatal(err)
	}
	for id, slot := range map[string]func(int) uint32{
		"00000002": func(c int) uint32 { return uint32(2 * c) },
		"00000003": func(c int) uint32 { return uint32(1000 + c) },
	} {
		l := &segment.Locator{Dim: own.Dim, Rows: 500, Parts: own.Parts, Slots: make([]uint32, 500)}
		for c := range l.Slots {
			l.Slots[c] = slot(c)
		}
		if err := segment.WriteLocator(segment.Dir(indexDir, id), name, l); err != nil {
			t.Fatal(err)
		}
	}
}

// contentVectors reads each content's vector of a segment, through its
// locator's slots.
func contentVectors(t *testing.T, indexDir, id, name string) [][]int8 {
	t.Helper()
	l, err := segment.ReadLocator(segment.File(indexDir, id, name))
	if err != nil {
		t.Fatal(err)
	}
	stored := rowsOf(t, indexDir, id, name)
	out := make([][]int8, l.Rows)
	for c := range out {
		out[c] = stored[slotOf(l, c)]
	}
	return out
}

// hasPart reports whether Badger holds the part.
func hasPart(t *testing.T, s *Store, owner, name string, part int) bool {
	t.Helper()
	err := s.DB.View(func(txn *badger.Txn) error {
		_, err := txn.Get(partKey(owner, name, part))
		return err
	})
	if err != nil && !errors.Is(err, badger.ErrKeyNotFound) {
		t.Fatal(err)
	}
	return err == nil
}

// TestCompactPartsDropsDeadVectors: a part of a dropped segment that live
// segments share is rewritten with only the vectors they use; each
// content reads the same vector, and the old part is deleted.
func TestCompactPartsDropsDeadVectors(t *testing.T) {
	indexDir := t.TempDir()
	name := segment.VectorFileName("test-model")
	sharingLocators(t, indexDir, name)
	live := []string{"00000002", "00000003"}
	want := map[string][][]int8{}
	for _, id := range live {
		want[id] = contentVectors(t, indexDir, id, name)
	}
	if rows, _ := DeadVectors(indexDir, live); rows != 1000 {
		t.Fatalf("%d dead vectors, want 1000", rows)
	}
	s, err := OpenStore(indexDir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	sum, err := s.CompactParts(indexDir, live)
	if err != nil || sum != (CompactStats{Parts: 1, Dropped: 1000, Locators: 2}) {
		t.Fatalf("compact: %+v, %v", sum, err)
	}
	for _, id := range live {
		if got := contentVectors(t, indexDir, id, name); !slices.EqualFunc(got, want[id], slices.Equal) {
			t.Errorf("segment %s reads other vectors after the compaction", id)
		}
	}
	if rows, _ := DeadVectors(indexDir, live); rows != 0 || store.VectorRows(indexDir, live) != 1000 {
		t.Errorf("after: %d dead of %d stored", rows, store.VectorRows(indexDir, live))
	}
	if hasPart(t, s, "00000001", name, 0) || !hasPart(t, s, "00000001", name, 1) {
		t.Error("the old part is still stored, or the new one is not")
	}
}

// TestCompactPartsKilledPartway: a compaction that stops after writing
// the new part, before any locator names it or after one of two, leaves
// every content reading its vector; the next deletion of orphans drops an
// unnamed new part, and the next compaction finishes the work.
func TestCompactPartsKilledPartway(t *testing.T) {
	for _, written := range []int{0, 1} {
		indexDir := t.TempDir()
		name := segment.VectorFileName("test-model")
		sharingLocators(t, indexDir, name)
		live := []string{"00000002", "00000003"}
		want := map[string][][]int8{}
		for _, id := range live {
			want[id] = contentVectors(t, indexDir, id, name)
		}
		check := func(when string) {
			for _, id := range live {
				if got := contentVectors(t, indexDir, id, name); !slices.EqualFunc(got, want[id], slices.Equal) {
					t.Errorf("%d written, %s: segment %s reads other vectors", written, when, id)
				}
			}
		}
		s, err := OpenStore(indexDir)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		writeLocator = func(dir, name string, l *segment.Locator) error {
			if n++; n > written {
				return errors.New("killed")
			}
			return segment.WriteLocator(dir, name, l)
		}
		_, err = s.CompactParts(indexDir, live)
		writeLocator = segment.WriteLocator
		if err == nil {
			t.Fatal("the compaction did not fail")
		}
		check("killed")
		if !hasPart(t, s, "00000001", name, 0) || !hasPart(t, s, "00000001", name, 1) {
			t.Fatalf("%d written: the old part or the new one is gone", written)
		}
		deleted, err := s.DeleteOrphanVectors(live)
		if err != nil || deleted != []int{1000, 0}[written] {
			t.Errorf("%d written: orphans deleted %d (%v)", written, deleted, err)
		}
		check("after orphans")
		if _, err := s.CompactParts(indexDir, live); err != nil {
			t.Fatal(err)
		}
		check("compacted again")
		if hasPart(t, s, "00000001", name, 0) {
			t.Errorf("%d written: the old part stays", written)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
