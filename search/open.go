package search

import (
	"context"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
)

func resolveAll(repo *gitindex.Repo, revs []string) ([]gitindex.Commit, error) {
	out := make([]gitindex.Commit, len(revs))
	for i, rev := range revs {
		c, err := repo.Resolve(rev)
		if err != nil {
			return nil, err
		}
		out[i] = c
	}
	return out, nil
}

// ready is the query's one call into the indexing side: it makes sure the
// commits (or, with opts.Worktree, the working tree) are indexed unless
// opts.NoIndex, and returns the snapshot, the listings and where their
// blobs are. res learns what is pending, damaged or without vectors.
func ready(ctx context.Context, repo *gitindex.Repo, commits []gitindex.Commit, opts *Options, res *Result) (*indexer.Ready, error) {
	return readyWant(ctx, repo, indexer.Want{Commits: commits}, opts, res)
}

// readyWant is ready with more of indexer.Want said.
func readyWant(ctx context.Context, repo *gitindex.Repo, want indexer.Want, opts *Options, res *Result) (*indexer.Ready, error) {
	iopts := opts.Index
	iopts.Embedder = opts.Embedder
	want.Worktree, want.NoIndex = opts.Worktree, opts.NoIndex
	want.LockWait, want.OnIndexed = opts.LockWait, opts.OnIndexed
	r, err := indexer.NewIndexer(repo, iopts).Ready(ctx, want)
	if r != nil {
		res.Indexed = r.Indexed
		res.Pending, res.Damaged, res.NoVectors = r.Pending, r.Damaged, r.NoVectors
	}
	if err == nil && opts.afterReady != nil {
		opts.afterReady()
	}
	return r, err
}
