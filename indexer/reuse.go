package indexer

import (
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/segment"
	"github.com/bcindex/bcindex/store"
)

// prevVectors finds the vectors of an edited file's previous version in the
// snapshot's segment, by content hash. Most chunks of an edit are unchanged
// and have the same hash as before: their vectors are read from the mapped
// (and verified) segment file instead of being looked up one by one in
// Badger, which on a branch run cost as much as chunking the edits. The
// result is nil when the version is in no segment or its segment has no
// vectors of the snapshot's model.
func prevVectors(snap *store.Snapshot, sha plumbing.Hash) *segVectors {
	loc, ok := snap.FindBlob(sha)
	if !ok || loc.N == 0 {
		return nil
	}
	seg := snap.Segments[loc.Seg]
	if seg.Vec == nil {
		return nil
	}
	rows := make(map[[16]byte]int, loc.N)
	for i := loc.First; i < loc.First+loc.N; i++ {
		if h, indexed := seg.RowHash(i); indexed {
			rows[h] = i
		}
	}
	return &segVectors{seg: seg, rows: rows}
}

// segVectors are the rows of one blob in a segment, by content hash.
type segVectors struct {
	seg  *segment.Segment
	rows map[[16]byte]int
}

// get returns the vector of the chunk content hash, if the rows have one.
func (v *segVectors) get(hash [16]byte) ([]int8, float32, bool) {
	if v == nil {
		return nil, 0, false
	}
	row, ok := v.rows[hash]
	if !ok {
		return nil, 0, false
	}
	q, scale := v.seg.Vec.Row(row)
	return q, scale, q != nil
}
