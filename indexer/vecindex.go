package indexer

import (
	"sync"

	"github.com/bcindex/bcindex/store"
)

// storedVectors finds a vector already stored for a chunk's content, in
// any segment of a snapshot that has the model's vectors, and in vectors a
// fetched share brought. Vectors are found through segments' rows (a
// segment maps them to its own or shared parts), not by a key per content,
// so the table from content hash to row is built on the first lookup, from
// the segments' hash columns: a pass over 16 bytes a row (about 20 ms for
// 200k rows). Only runs with a remote embedder use it, where a vector not
// found costs a request; the built-in model computes one in microseconds.
type storedVectors struct {
	snap   *store.Snapshot
	shared map[[16]byte]SharedVector

	once  sync.Once
	where map[[16]byte]rowRef

	// recent are vectors this run computed, so that content repeated
	// across the run's blobs (the versions of a file along a history) is
	// embedded once, as it is across runs.
	mu          sync.Mutex
	recent      map[[16]byte]SharedVector
	recentOrder [][16]byte
	recentNext  int
}

// maxRecent bounds the vectors a run keeps for reuse (about 20 MB at 256
// dimensions); the oldest go first.
const maxRecent = 1 << 16

// remember keeps a vector the run computed for content hash.
func (s *storedVectors) remember(hash [16]byte, q []int8, scale float32) {
	if s == nil || q == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.recent == nil {
		s.recent = make(map[[16]byte]SharedVector)
	}
	if _, ok := s.recent[hash]; ok {
		return
	}
	if len(s.recentOrder) < maxRecent {
		s.recentOrder = append(s.recentOrder, hash)
	} else {
		delete(s.recent, s.recentOrder[s.recentNext])
		s.recentOrder[s.recentNext] = hash
		s.recentNext = (s.recentNext + 1) % maxRecent
	}
	s.recent[hash] = SharedVector{Q: q, Scale: scale}
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
	s.mu.Lock()
	v, ok := s.recent[hash]
	s.mu.Unlock()
	if ok {
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
