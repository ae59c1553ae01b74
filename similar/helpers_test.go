package similar

import (
	"context"
	"testing"
	"time"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/internal/testkit/indextest"
	"github.com/bcindex/bcindex/search"
)

func openRepo(t *testing.T, dir string) *gitindex.Repo { return indextest.Open(t, dir) }

// similarRepo runs similar as the command does, indexing first.
func similarRepo(ctx context.Context, repo *gitindex.Repo, spec string, opts search.Options) (*Result, error) {
	want, err := Plan(repo, spec, opts)
	if err != nil {
		return nil, err
	}
	v, _, err := indexer.NewIndexer(repo, indexer.Options{Embedder: opts.Embedder}).Ensure(ctx, want, indexer.All, time.Minute)
	if err != nil {
		return nil, err
	}
	defer v.Close()
	return Similar(ctx, v, spec, opts)
}
