package search

import (
	"github.com/bcindex/bcindex/store"
)

// rowBlobs is, for each segment of a snapshot, every row's blob (its index
// in the segment's blob table) and every blob's first row, in slices: the
// text arm asks for the blob of each row holding a query term, and finding
// those in the mapped table (a bisection of its blobs' row spans a row)
// costs more than building these from the blob table once.
type rowBlobs struct {
	blob  [][]int32 // [segment][row]: the blob, -1 for a row of none
	first [][]int32 // [segment][blob]: its first row
}

// newRowBlobs builds the rowBlobs of snap from each segment's blob table.
func newRowBlobs(snap *store.Snapshot) *rowBlobs {
	rb := &rowBlobs{blob: make([][]int32, len(snap.Segments)), first: make([][]int32, len(snap.Segments))}
	for s, seg := range snap.Segments {
		rows, nb := seg.Rows(), seg.Blobs()
		blob, first := make([]int32, rows), make([]int32, nb)
		for r := range blob {
			blob[r] = -1
		}
		for b := 0; b < nb; b++ {
			f, n := seg.Table.BlobRange(b)
			first[b] = int32(f)
			if f < 0 || n < 0 || f+n > rows {
				continue // out of the row table: its rows say so themselves
			}
			for r := f; r < f+n; r++ {
				blob[r] = int32(b)
			}
		}
		// A row no blob's range holds reads as its record says.
		for r, b := range blob {
			if b < 0 {
				blob[r] = int32(seg.BlobOf(r))
			}
		}
		rb.blob[s], rb.first[s] = blob, first
	}
	return rb
}

// of returns row r's blob in segment s, as Segment.BlobOf does.
func (rb *rowBlobs) of(s, r int) int { return int(rb.blob[s][r]) }

// firstOf returns the first row of row r's blob in segment s, as
// Segment.BlobFirst does: -1 for a row of no blob.
func (rb *rowBlobs) firstOf(s, r int) int {
	b := rb.blob[s][r]
	if b < 0 {
		return -1
	}
	return int(rb.first[s][b])
}

// rowBlobsKey keys a snapshot's rowBlobs in store.View.Memo.
type rowBlobsKey struct{}

// rowBlobs returns the rowBlobs of the view's snapshot: kept with the
// store's view when the query has one, so a server builds them once.
// The arms of a query ask at once.
func (v *view) rowBlobs() *rowBlobs {
	v.rbOnce.Do(func() {
		if v.memo != nil {
			v.rb = v.memo.Memo(rowBlobsKey{}, func() any { return newRowBlobs(v.snap) }).(*rowBlobs)
		} else {
			v.rb = newRowBlobs(v.snap)
		}
	})
	return v.rb
}
