package indexer

import (
	"context"
	"time"

	"github.com/bcindex/bcindex/gitindex"
)

// IndexHistory indexes the commits History selects. Blobs shared between
// commits are processed once, so the cost grows with distinct blobs.
func (ix *Indexer) IndexHistory(ctx context.Context, opts gitindex.HistoryOptions, lockWait time.Duration) (*Summary, error) {
	commits, err := ix.repo.History(ctx, opts)
	if err != nil {
		return nil, err
	}
	if err := ix.repo.ListHistory(ctx, commits); err != nil {
		return nil, err
	}
	revs := make([]string, len(commits))
	for i, c := range commits {
		revs[i] = c.Hash.String()
	}
	return ix.Index(ctx, revs, lockWait)
}
