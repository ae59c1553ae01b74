package indexer

import (
	"sync"

	"github.com/bcindex/bcindex/store"
)

// storedVectors finds a vector already stored for a chunk's content, in
// any segment of a snapshot that has the model's vectors, and in vectors a
// fetched share brought. Vectors are stored per segment, not per content,
// so the table from content hash to row is built on the first lookup, from
// the segments' hash columns: a pass over 16 bytes a row (about 20 ms for
// 200k rows). Only runs with a remote embedder use it, where a vector not
// found costs a request; the built-in model computes one in microseconds.
type storedVectors struct {
	snap   *store.Snapshot
	shared map[[16]byte]SharedVector

	once  sync.Once
	where map[[16]byte]rowRef
}

// rowRef is a row of a snapshot's segment.
type rowRef struct{ seg, row int32 }

// SharedVector is a vector a fetched share carries for a content hash.
type SharedVector struct {
	Q     []int8
	Scale float32
}

func newStoredVectors(snap *store.Snapshot, shared map[[16]byte]SharedVector) *storedVectors {
	return &storedVectors{snap: snap, shared: shared}
}

func (s *storedVectors) build() {
	n := 0
	for _, seg := range s.snap.Segments {
		if seg.Vec != nil {
			n += seg.Rows()
		}
	}
	s.where = make(map[[16]byte]rowRef, n/2)
	for i, seg := range s.snap.Segments {
		if seg.Vec == nil {
			continue
		}
		for r := 0; r < seg.Rows(); r++ {
			if seg.FirstCopy(r) != r {
				continue // a later copy of content the segment holds already
			}
			if h, indexed := seg.RowHash(r); indexed {
				s.where[h] = rowRef{int32(i), int32(r)}
			}
		}
	}
}

// get returns the stored vector of a content hash, if there is one.
func (s *storedVectors) get(hash [16]byte) ([]int8, float32, bool) {
	if s == nil {
		return nil, 0, false
	}
	if v, ok := s.shared[hash]; ok && v.Q != nil {
		return v.Q, v.Scale, true
	}
	if s.snap == nil {
		return nil, 0, false
	}
	s.once.Do(s.build)
	ref, ok := s.where[hash]
	if !ok {
		return nil, 0, false
	}
	q, scale := s.snap.Segments[ref.seg].Vec.Row(int(ref.row))
	return q, scale, q != nil
}
