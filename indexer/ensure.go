package indexer

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexing"
	"github.com/bcindex/bcindex/store"
)

// Ensure is every front end's one call before it reads the index (the
// commands, the MCP tools, the web pages): Indexer.Ensure of r with opts,
// whose embedder is used only where the parts read vectors (All).
func Ensure(ctx context.Context, repo *gitindex.Repo, opts Options, r Request) (*store.View, *Summary, error) {
	if r.Progress != nil {
		opts.Progress = r.Progress
	}
	parts := r.Parts
	if parts != All {
		opts.Embedder = nil
	}
	if r.NoIndex {
		parts = None
	}
	ix := NewIndexer(repo, opts)
	if r.History == nil || parts == None {
		return ix.Ensure(ctx, r.Want, parts, r.LockWait)
	}
	sum, err := ix.IndexHistory(ctx, *r.History, r.LockWait)
	if err != nil {
		return nil, nil, err
	}
	v, _, err := ix.Ensure(ctx, r.Want, None, r.LockWait)
	if err != nil {
		return nil, nil, err
	}
	return v, sum, nil
}

// Ensurer is Ensure with opts, as the front ends that link no parser
// receive it (indexing.Ensure).
func Ensurer(opts Options) indexing.Ensure {
	return func(ctx context.Context, repo *gitindex.Repo, r Request) (*store.View, *Summary, error) {
		return Ensure(ctx, repo, opts, r)
	}
}

// Ensure brings the index of
// want up to date for parts — indexing the blobs no segment holds yet,
// rebuilding an index of an older schema or a damaged one, and for All
// computing the vectors the configured model lacks — then opens it
// read-only for the query. Another indexer holding the lock beyond
// lockWait is no error: what is indexed is served and the rest counted as
// pending. The summary is the indexing run's, nil when none ran.
func (ix *Indexer) Ensure(ctx context.Context, want store.Want, parts Parts, lockWait time.Duration) (*store.View, *Summary, error) {
	model := ix.model()
	if parts == Exact {
		model = "" // grep reads no vectors
	}
	want.MaxFileSize = ix.opts.MaxFileSize
	if parts == None {
		v, err := store.Open(ctx, ix.repo, want, model)
		return v, nil, err
	}
	if want.Worktree && want.Listing == nil {
		l, head, err := ix.repo.WorktreeListing(ctx, ix.opts.MaxFileSize)
		if err != nil {
			return nil, nil, err
		}
		want.Listing, want.Head = l, head
	}
	// Listing a tree reads git, never the store: fine while an indexer
	// runs. What is not cached yet is listed by the indexing run, under
	// the lock.
	probe := want
	probe.CachedOnly = true
	v, err := store.Open(ctx, ix.repo, probe, model)
	switch {
	case err == nil && v.Pending == 0 && (parts != All || model == "" || v.NoVectors == 0):
		v.Want = want
		return v, nil, nil
	case err == nil:
		v.Close()
	case !errors.Is(err, store.ErrNoIndex) && !errors.Is(err, store.ErrSchema) && !errors.Is(err, store.ErrCorrupt):
		return nil, nil, err
	}
	run := ix
	if parts == Exact && ix.opts.Embedder != nil {
		opts := ix.opts
		opts.Embedder = nil
		run = NewIndexer(ix.repo, opts)
	}
	sum, err := run.ensure(ctx, want, lockWait)
	if err != nil && !errors.Is(err, store.ErrLocked) {
		what := "the working tree"
		if !want.Worktree {
			what = want.Commits[0].Rev
		}
		return nil, nil, fmt.Errorf("index %s before searching: %w", what, err)
	}
	v, err = store.Open(ctx, ix.repo, want, model)
	if err != nil {
		return nil, nil, err
	}
	return v, sum, nil
}

// ensure runs the indexing of want, listing under the lock what is not
// listed yet.
func (ix *Indexer) ensure(ctx context.Context, want store.Want, lockWait time.Duration) (*Summary, error) {
	if want.Worktree {
		return ix.IndexListing(ctx, want.Listing, lockWait)
	}
	commits := want.Commits
	return ix.index(ctx, commits, func(each func(*gitindex.Listing, *gitindex.TreeDiff) error) error {
		for _, c := range commits {
			if l, err := ix.repo.CachedListing(c.Tree); err == nil {
				l.Full() // the run reads every entry
				if err := each(l, nil); err != nil {
					return err
				}
				continue
			}
			l, d, err := ix.repo.CommitListingDiff(ctx, c)
			if err != nil {
				return err
			}
			if err := each(l, d); err != nil {
				return err
			}
		}
		return nil
	}, lockWait, time.Now())
}

// model is the ID of the vectors a query reads ("" without an embedder).
func (ix *Indexer) model() string {
	if ix.opts.Embedder == nil {
		return ""
	}
	return ix.opts.Embedder.ID()
}
