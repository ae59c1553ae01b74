package indexer

import (
	"fmt"

	"github.com/bcindex/bcindex/store"
)

// sweepSummaries deletes the generated summaries (`git bcindex enhance`,
// every model and prompt version) of chunk texts no live segment holds
// any more, from the store and from the summary index, once compact has
// left only live blobs in the segments. A summary belongs to a text, not a
// revision, so it lives as long as any indexed revision holds that text.
func (ix *Indexer) sweepSummaries(st *store.Store, sum *GCSummary) error {
	have, err := st.SummaryHashesAll()
	if err != nil {
		return fmt.Errorf("gc: %w", err)
	}
	dir := ix.repo.IndexDir
	live := map[[16]byte]bool{}
	if len(have) > 0 {
		m, err := store.ReadManifest(dir)
		if err != nil {
			return fmt.Errorf("gc: %w", err)
		}
		snap, err := store.OpenSegments(dir, m.Segments, "")
		if err != nil {
			return fmt.Errorf("gc: %w", err)
		}
		// Only the hashes that have a summary are remembered: the rows
		// are many, the summaries few.
		for _, seg := range snap.Segments {
			for i := 0; i < seg.Rows(); i++ {
				if h, ok := seg.RowHash(i); ok && have[h] {
					live[h] = true
				}
			}
		}
		snap.Close()
	}
	keep := func(h [16]byte) bool { return live[h] }
	if sum.Summaries, err = st.DeleteSummariesExcept(keep); err != nil {
		return fmt.Errorf("gc: %w", err)
	}
	// The summary index may hold entries the store no longer has, whoever
	// wrote it: it is pruned by the same rule, not only by what was deleted.
	if sum.SummaryIndexEntries, err = store.PruneSummaryIndex(dir, keep); err != nil {
		return fmt.Errorf("gc: %w", err)
	}
	return nil
}
