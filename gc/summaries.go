package gc

import (
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/store"
	"github.com/bcindex/bcindex/store/storewrite"
)

// sweepSummaries deletes the generated summaries (`git bcindex enhance`,
// every model and prompt version) of the chunk texts that only dead blobs
// hold, from the store and from the summary index. A summary belongs to a
// text, not a revision: it stays while any live blob in the segments holds
// that text. Summaries of texts no segment holds at all (fetched from a
// teammate who indexed a branch not indexed here, or written for a
// revision never indexed) are kept: they cost a model's work, and nothing
// says they are dead.
//
// It runs before compact, on the segments as they are: a gc killed after
// it has deleted only summaries whose blobs were about to go, and a gc
// killed before it finds the same dead blobs next time.
func (ix *collector) sweepSummaries(st *storewrite.Store, m *store.Manifest, live map[plumbing.Hash]string, sum *Summary) error {
	have, err := st.SummaryHashesAll()
	if err != nil || len(have) == 0 {
		return err
	}
	snap, err := store.OpenSegments(ix.repo.IndexDir, m.Segments, "")
	if err != nil {
		return fmt.Errorf("gc: %w", err)
	}
	defer snap.Close()
	if !anyDead(snap, live) {
		return nil // no blob goes, so no text does
	}
	dead, held := map[[16]byte]bool{}, map[[16]byte]bool{}
	for _, seg := range snap.Segments {
		for b := 0; b < seg.Blobs(); b++ {
			sha := seg.BlobSHA(b)
			first, n, ok := seg.FindBlob(sha)
			if !ok {
				continue
			}
			_, isLive := live[sha]
			for i := first; i < first+n; i++ {
				// Only the hashes that have a summary are remembered: the
				// rows are many, the summaries few.
				if h, ok := seg.RowHash(i); ok && have[h] {
					if isLive {
						held[h] = true
					} else {
						dead[h] = true
					}
				}
			}
		}
	}
	for h := range held {
		delete(dead, h)
	}
	if len(dead) == 0 {
		return nil
	}
	keep := func(h [16]byte) bool { return !dead[h] }
	if sum.Summaries, err = st.DeleteSummariesExcept(keep); err != nil {
		return fmt.Errorf("gc: %w", err)
	}
	if sum.SummaryIndexEntries, err = storewrite.PruneSummaryIndex(ix.repo.IndexDir, keep); err != nil {
		return fmt.Errorf("gc: %w", err)
	}
	return nil
}

func anyDead(snap *store.Snapshot, live map[plumbing.Hash]string) bool {
	for _, seg := range snap.Segments {
		for b := 0; b < seg.Blobs(); b++ {
			if _, ok := live[seg.BlobSHA(b)]; !ok {
				return true
			}
		}
	}
	return false
}
