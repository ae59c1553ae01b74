package main

import (
	"context"
	"time"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/store"
)

// ensure is a command's one call before it reads the index: with
// --no-index it opens what is there (parts None), otherwise it indexes
// what parts need first (indexer.Ensure), reporting a repaired index.
func ensure(ctx context.Context, repo *gitindex.Repo, opts indexer.Options, want store.Want, parts indexer.Parts, noIndex bool, wait time.Duration) (*store.View, *indexer.Summary, error) {
	if noIndex {
		parts = indexer.None
	}
	return indexer.NewIndexer(repo, opts).Ensure(ctx, want, parts, wait)
}
