package search

import (
	"context"
	"errors"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/store"
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

// openIndexed opens a snapshot in which every commit is indexed, indexing
// missing blobs first unless opts.NoIndex, and returns the commits' listings
// in order. res.Pending counts the blobs still missing.
func openIndexed(ctx context.Context, repo *gitindex.Repo, commits []gitindex.Commit, opts *Options, res *Result) (*store.Snapshot, []*gitindex.Listing, error) {
	model := ""
	if opts.Embedder != nil {
		model = opts.Embedder.ID()
	}
	for attempt := 0; ; attempt++ {
		listings := make([]*gitindex.Listing, len(commits))
		var lerr error
		var unlisted gitindex.Commit
		list := repo.CachedListing
		if opts.NoIndex {
			list = repo.Listing // listing a tree reads git, never the store: fine while an indexer runs
		}
		for i, c := range commits {
			if listings[i], lerr = list(c.Tree); lerr != nil {
				unlisted = c
				break
			}
		}
		snap, serr := store.OpenSnapshot(repo.IndexDir, model)
		// An index of an older schema, or with a damaged manifest, is
		// rebuilt by the indexer below.
		rebuild := (errors.Is(serr, store.ErrSchema) || errors.Is(serr, store.ErrCorrupt)) && !opts.NoIndex && attempt == 0
		if serr != nil && !errors.Is(serr, store.ErrNoIndex) && !rebuild {
			return nil, nil, serr
		}
		missing := -1
		if lerr == nil && serr == nil {
			missing = countMissing(snap, listings...)
		}
		// A switch of model leaves every blob indexed but without the new
		// model's vectors: the indexer computes them, as it does new blobs.
		if missing == 0 && !opts.NoIndex && attempt == 0 && opts.Embedder != nil && withoutVectors(snap) > 0 {
			missing = -1
		}
		if missing == 0 || (opts.NoIndex && lerr == nil && serr == nil) || attempt > 0 {
			if serr != nil {
				return nil, nil, store.ErrNoIndex
			}
			if lerr != nil {
				snap.Close()
				return nil, nil, fmt.Errorf("revision %s is not indexed: %w", unlisted.Rev, store.ErrNoIndex)
			}
			res.Pending = max(missing, 0)
			for _, d := range snap.Damaged {
				res.Damaged = append(res.Damaged, d.String())
			}
			if opts.Embedder != nil {
				res.NoVectors = withoutVectors(snap)
			}
			return snap, listings, nil
		}
		if snap != nil {
			snap.Close()
		}
		if opts.NoIndex {
			return nil, nil, store.ErrNoIndex
		}
		iopts := opts.Index
		iopts.Embedder = opts.Embedder
		revs := make([]string, len(commits))
		for i, c := range commits {
			revs[i] = c.Hash.String()
		}
		sum, err := indexer.NewIndexer(repo, iopts).Index(ctx, revs, opts.LockWait)
		if err != nil && !errors.Is(err, store.ErrLocked) {
			return nil, nil, fmt.Errorf("index %s before searching: %w", commits[0].Rev, err)
		}
		res.Indexed = sum
		if sum != nil && opts.OnIndexed != nil {
			opts.OnIndexed(sum)
		}
	}
}

// openWorktree indexes the working tree's changed files (only blobs not
// seen before) and opens HEAD's listing with those files substituted.
func openWorktree(ctx context.Context, repo *gitindex.Repo, opts *Options, res *Result) (*store.Snapshot, []*gitindex.Listing, error) {
	if len(opts.OnlyIn) > 0 || len(opts.NotIn) > 0 || (opts.Rev != "" && opts.Rev != "HEAD") {
		return nil, nil, fmt.Errorf("--worktree searches HEAD with uncommitted changes; it does not combine with --ref, --only-in or --not-in")
	}
	maxSize := opts.Index.MaxFileSize
	if maxSize <= 0 {
		maxSize = indexer.DefaultMaxFileSize
	}
	l, head, err := repo.WorktreeListing(ctx, maxSize)
	if err != nil {
		return nil, nil, err
	}
	head.Rev = "worktree"
	res.Commit = head
	if !opts.NoIndex {
		iopts := opts.Index
		iopts.Embedder = opts.Embedder
		sum, err := indexer.NewIndexer(repo, iopts).IndexListing(ctx, l, opts.LockWait)
		if err != nil && !errors.Is(err, store.ErrLocked) {
			return nil, nil, fmt.Errorf("index the working tree before searching: %w", err)
		}
		res.Indexed = sum
		if sum != nil && opts.OnIndexed != nil {
			opts.OnIndexed(sum)
		}
	}
	model := ""
	if opts.Embedder != nil {
		model = opts.Embedder.ID()
	}
	snap, err := store.OpenSnapshot(repo.IndexDir, model)
	if err != nil {
		return nil, nil, err
	}
	res.Pending = countMissing(snap, l)
	return snap, []*gitindex.Listing{l}, nil
}

// withoutVectors counts the chunks in segments without vectors of the
// snapshot's model.
func withoutVectors(snap *store.Snapshot) int {
	n := 0
	for _, seg := range snap.Segments {
		if seg.Vec == nil {
			n += seg.Rows()
		}
	}
	return n
}

// countMissing counts the distinct blobs of the listings that no segment holds.
func countMissing(snap *store.Snapshot, ls ...*gitindex.Listing) int {
	if len(ls) == 1 {
		// One revision: the view looks the same entries up again (Locate
		// remembers them).
		missing := map[plumbing.Hash]bool{}
		for i, loc := range snap.Locate(ls[0]) {
			if e := ls[0].Entries[i]; loc.Seg < 0 && e.Skip == gitindex.SkipNone {
				missing[e.Blob] = true
			}
		}
		return len(missing)
	}
	// A history repeats most blobs: look each up once.
	found := map[plumbing.Hash]bool{}
	n := 0
	for _, l := range ls {
		for _, e := range l.Entries {
			if e.Skip != gitindex.SkipNone {
				continue
			}
			if _, checked := found[e.Blob]; checked {
				continue
			}
			_, ok := snap.FindBlob(e.Blob)
			found[e.Blob] = ok
			if !ok {
				n++
			}
		}
	}
	return n
}
