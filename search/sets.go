package search

import (
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/segment"
	"github.com/bcindex/bcindex/store"
)

// hashSet is a set of chunk content hashes.
type hashSet map[[16]byte]struct{}

// listingHashes collects the content hashes of every row of a listing's
// blobs. Blobs shared by several paths are read once.
func listingHashes(snap *store.Snapshot, l *gitindex.Listing) hashSet {
	set := hashSet{}
	done := map[plumbing.Hash]bool{}
	for _, e := range l.Full() {
		if e.Skip != gitindex.SkipNone || done[e.Blob] {
			continue
		}
		done[e.Blob] = true
		addBlobHashes(snap, e.Blob, set)
	}
	return set
}

// addBlobHashes adds the content hashes of one blob's rows to set.
func addBlobHashes(snap *store.Snapshot, blob plumbing.Hash, set map[[16]byte]struct{}) {
	loc, ok := snap.FindBlob(blob)
	if !ok {
		return
	}
	seg := snap.Segments[loc.Seg]
	for r := loc.First; r < loc.First+loc.N; r++ {
		if h := seg.Row(r).Hash; h != ([16]byte{}) {
			set[h] = struct{}{}
		}
	}
}

// restrictToSets keeps the visible rows whose content hash is present in
// every listing of in and absent from every listing of out: chunks that are
// in A and not in B, decided by content alone, with no re-embedding. Rows
// without text of their own (zero hash) have no content identity and are
// dropped.
func (v *view) restrictToSets(in, out []*gitindex.Listing) {
	var ins []hashSet
	for _, l := range in {
		ins = append(ins, listingHashes(v.snap, l))
	}
	excl := hashSet{}
	for _, l := range out {
		for h := range listingHashes(v.snap, l) {
			excl[h] = struct{}{}
		}
	}
	v.restrict(func(r segment.Row) bool {
		if r.Hash == ([16]byte{}) {
			return false
		}
		if _, gone := excl[r.Hash]; gone {
			return false
		}
		for _, s := range ins {
			if _, ok := s[r.Hash]; !ok {
				return false
			}
		}
		return true
	})
}

// restrict clears the visible rows for which keep is false.
func (v *view) restrict(keep func(segment.Row) bool) {
	for s, seg := range v.snap.Segments {
		allow := v.allow[s]
		for r, ok := allow.NextSet(0); ok; r, ok = allow.NextSet(r + 1) {
			if !keep(seg.Row(int(r))) {
				allow.Clear(r)
			}
		}
	}
}
