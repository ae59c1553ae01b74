package search

import (
	"context"
	"testing"
	"time"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
)

// indexThenSearch runs a query as the command does: the revisions indexed
// first (indexer.Ensure with indexer.All), then searched. It returns the
// indexing run's summary too (nil when nothing was indexed).
func indexThenSearch(ctx context.Context, repo *gitindex.Repo, opts Options) (*Result, *indexer.Summary, error) {
	p, err := NewPlan(repo, opts)
	if err != nil {
		return nil, nil, err
	}
	v, sum, err := indexer.NewIndexer(repo, indexer.Options{Embedder: opts.Embedder}).Ensure(ctx, p.Want, indexer.All, time.Minute)
	if err != nil {
		return nil, nil, err
	}
	defer v.Close()
	res, err := NewSearcher(v, p).Search(ctx, nil, opts)
	return res, sum, err
}

// searchRepo is indexThenSearch without the summary.
func searchRepo(ctx context.Context, repo *gitindex.Repo, opts Options) (*Result, error) {
	res, _, err := indexThenSearch(ctx, repo, opts)
	return res, err
}

// runIndexing is run, returning the indexing run's summary too.
func runIndexing(t *testing.T, repo *gitindex.Repo, opts Options) (*Result, *indexer.Summary) {
	t.Helper()
	if opts.Embedder == nil {
		opts.Embedder = embed.Default()
	}
	res, sum, err := indexThenSearch(context.Background(), repo, opts)
	if err != nil {
		t.Fatalf("search %q: %v", opts.Query, err)
	}
	return res, sum
}

// runAsIs is run on the index as it is.
func runAsIs(t *testing.T, repo *gitindex.Repo, opts Options) *Result {
	t.Helper()
	if opts.Embedder == nil {
		opts.Embedder = embed.Default()
	}
	res, err := SearchIndexed(context.Background(), repo, opts)
	if err != nil {
		t.Fatalf("search %q: %v", opts.Query, err)
	}
	return res
}
