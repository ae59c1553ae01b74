package indexer

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/store"
)

// Want names what a query is about to read: resolved revisions (or the
// working tree), and how far it may go to make them searchable.
type Want struct {
	// Commits are the revisions, resolved; Ready lists them in this order.
	Commits []gitindex.Commit
	// Worktree asks for HEAD with the working tree's uncommitted changes
	// instead of Commits.
	Worktree bool
	// NoIndex reads what is indexed and counts the rest as pending.
	NoIndex   bool
	LockWait  time.Duration // how long to wait for a running indexer
	OnIndexed func(*Summary)
	// ByDelta leaves the entries of listings after the first unbuilt
	// (gitindex.ListingsByDelta): the caller reads them through Fresh and
	// Gone, or builds them (Listing.Full).
	ByDelta bool
}

// Ready is everything a query reads: one snapshot in which the revisions
// are indexed as far as they could be, each revision's listing, and where
// each listed blob's rows are. The caller closes Snap.
type Ready struct {
	Snap     *store.Snapshot
	Listings []*gitindex.Listing // in the order of Want.Commits
	// Fresh[i] lists the entries of Listings[i] that Listings[i-1] does
	// not hold as they are (gitindex.FreshEntries); Fresh[0] holds every
	// entry of the first listing. A view over several listings adds each
	// listing's entries after the previous one's, so the rest are in it
	// already. Gone[i], for i > 0, lists the entries of Listings[i-1]
	// that Listings[i] lacks as they are.
	Fresh, Gone [][]gitindex.Entry
	// Located[i][k] is where the rows of Fresh[i][k] are (Seg -1: skipped,
	// or in no segment). The query builds its view from these, so every
	// blob is looked up once per query.
	Located [][]store.BlobLoc
	// Commit is the working tree's commit (HEAD, named "worktree") with
	// Want.Worktree.
	Commit    gitindex.Commit
	Pending   int      // distinct blobs of the listings that no segment holds
	Damaged   []string // parts of the index left out because they failed their checks
	NoVectors int      // chunks without vectors of the embedder's model
	Indexed   *Summary // the indexing run this call made, if any
}

// Ready makes sure the wanted revisions are indexed — indexing the blobs no
// segment holds yet, and vectors of a newly configured model, unless
// want.NoIndex — and opens them for a query. Each revision is listed once;
// the snapshot is opened again only after an indexing run published new
// segments. Another indexer holding the lock beyond want.LockWait is no
// error: what is indexed is served and the rest counted as pending.
func (ix *Indexer) Ready(ctx context.Context, want Want) (*Ready, error) {
	if want.Worktree {
		return ix.readyWorktree(ctx, want)
	}
	commits := want.Commits
	trees := make([]plumbing.Hash, len(commits))
	for i, c := range commits {
		trees[i] = c.Tree
	}
	// Listing a tree reads git, never the store: fine while an indexer
	// runs. Without NoIndex what is not cached yet is listed by the
	// indexing run, under the lock.
	read := ix.repo.Listings
	if want.ByDelta {
		read = ix.repo.ListingsByDelta
	}
	listings, errs := read(trees, !want.NoIndex)
	for i := range listings {
		if errs[i] != nil {
			clear(listings[i:])
			break
		}
	}
	r, again, err := ix.open(want, listings, true)
	if !again {
		return r, err
	}
	// The run lists what is not listed yet, and the listings it makes are
	// the ones the query reads.
	sum, err := ix.index(ctx, commits, func() ([]*gitindex.Listing, []*gitindex.TreeDiff, error) {
		diffs := make([]*gitindex.TreeDiff, len(commits))
		for i, c := range commits {
			if listings[i] != nil {
				listings[i].Full() // the run reads every entry
				continue
			}
			l, d, err := ix.repo.CommitListingDiff(ctx, c)
			if err != nil {
				return nil, nil, err
			}
			listings[i], diffs[i] = l, d
		}
		return listings, diffs, nil
	}, want.LockWait, time.Now())
	if err != nil && !errors.Is(err, store.ErrLocked) {
		return nil, fmt.Errorf("index %s before searching: %w", commits[0].Rev, err)
	}
	if sum != nil && want.OnIndexed != nil {
		want.OnIndexed(sum)
	}
	r, _, err = ix.open(want, listings, false)
	if err != nil {
		return nil, err
	}
	r.Indexed = sum
	return r, nil
}

// open opens the snapshot and locates the listings' blobs in it. On the
// first try it reports again when an indexing run is due: blobs are
// missing, the model's vectors are, or the index must be rebuilt.
func (ix *Indexer) open(want Want, listings []*gitindex.Listing, first bool) (r *Ready, again bool, err error) {
	snap, serr := store.OpenSnapshot(ix.repo.IndexDir, ix.model())
	// An index of an older schema, or with a damaged manifest, is rebuilt
	// by the indexing run.
	rebuild := (errors.Is(serr, store.ErrSchema) || errors.Is(serr, store.ErrCorrupt)) && !want.NoIndex && first
	if serr != nil && !errors.Is(serr, store.ErrNoIndex) && !rebuild {
		return nil, false, serr
	}
	unlisted := -1
	for i, l := range listings {
		if l == nil {
			unlisted = i
			break
		}
	}
	missing := -1
	var located [][]store.BlobLoc
	var fresh, gone [][]gitindex.Entry
	if unlisted < 0 && serr == nil {
		located, fresh, gone, missing = locate(snap, listings)
	}
	// A switch of model leaves every blob indexed but without the new
	// model's vectors: the indexing run computes them, as it does new blobs.
	if missing == 0 && !want.NoIndex && first && ix.opts.Embedder != nil && withoutVectors(snap) > 0 {
		missing = -1
	}
	if missing != 0 && !(want.NoIndex && unlisted < 0 && serr == nil) && first {
		if snap != nil {
			snap.Close()
		}
		if want.NoIndex {
			return nil, false, store.ErrNoIndex
		}
		return nil, true, nil
	}
	if serr != nil {
		return nil, false, store.ErrNoIndex
	}
	if unlisted >= 0 {
		snap.Close()
		return nil, false, fmt.Errorf("revision %s is not indexed: %w", want.Commits[unlisted].Rev, store.ErrNoIndex)
	}
	return ix.ready(snap, listings, located, fresh, gone, max(missing, 0)), false, nil
}

// ready gathers what the query reads from an opened snapshot.
func (ix *Indexer) ready(snap *store.Snapshot, listings []*gitindex.Listing, located [][]store.BlobLoc, fresh, gone [][]gitindex.Entry, pending int) *Ready {
	r := &Ready{Snap: snap, Listings: listings, Located: located, Fresh: fresh, Gone: gone, Pending: pending}
	for _, d := range snap.Damaged {
		r.Damaged = append(r.Damaged, d.String())
	}
	if ix.opts.Embedder != nil {
		r.NoVectors = withoutVectors(snap)
	}
	return r
}

// readyWorktree indexes the working tree's changed files (only blobs not
// seen before) and opens HEAD's listing with those files substituted.
func (ix *Indexer) readyWorktree(ctx context.Context, want Want) (*Ready, error) {
	l, head, err := ix.repo.WorktreeListing(ctx, ix.opts.MaxFileSize)
	if err != nil {
		return nil, err
	}
	head.Rev = "worktree"
	var sum *Summary
	if !want.NoIndex {
		sum, err = ix.IndexListing(ctx, l, want.LockWait)
		if err != nil && !errors.Is(err, store.ErrLocked) {
			return nil, fmt.Errorf("index the working tree before searching: %w", err)
		}
		if sum != nil && want.OnIndexed != nil {
			want.OnIndexed(sum)
		}
	}
	snap, err := store.OpenSnapshot(ix.repo.IndexDir, ix.model())
	if err != nil {
		return nil, err
	}
	listings := []*gitindex.Listing{l}
	located, fresh, gone, missing := locate(snap, listings)
	r := ix.ready(snap, listings, located, fresh, gone, missing)
	r.Commit, r.Indexed = head, sum
	return r, nil
}

// model is the ID of the vectors a query reads ("" without an embedder).
func (ix *Indexer) model() string {
	if ix.opts.Embedder == nil {
		return ""
	}
	return ix.opts.Embedder.ID()
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

// locate finds where the rows of the listings' blobs are: every entry of
// the first listing, then the fresh entries of each next one. It returns
// them with the fresh and gone entries (see Ready) and how many distinct
// blobs no segment holds. Listings of several revisions repeat most
// blobs: each is looked up once.
func locate(snap *store.Snapshot, ls []*gitindex.Listing) (located [][]store.BlobLoc, fresh, gone [][]gitindex.Entry, missing int) {
	located, fresh, gone = make([][]store.BlobLoc, len(ls)), make([][]gitindex.Entry, len(ls)), make([][]gitindex.Entry, len(ls))
	absent := map[plumbing.Hash]bool{}
	if len(ls) == 1 {
		fresh[0] = ls[0].Full() // built first: the listing may have been read by delta
		located[0] = snap.Locate(ls[0])
		for i, loc := range located[0] {
			if e := ls[0].Entries[i]; loc.Seg < 0 && e.Skip == gitindex.SkipNone {
				absent[e.Blob] = true
			}
		}
		return located, fresh, gone, len(absent)
	}
	total := 0
	for i, l := range ls {
		if i == 0 {
			fresh[i] = l.Full()
		} else {
			fresh[i], gone[i] = gitindex.Changes(ls[i-1], l)
		}
		total += len(fresh[i])
	}
	found := make(map[plumbing.Hash]store.BlobLoc, total)
	for i := range ls {
		locs := make([]store.BlobLoc, len(fresh[i]))
		for k, e := range fresh[i] {
			locs[k].Seg = -1
			if e.Skip != gitindex.SkipNone {
				continue
			}
			loc, checked := found[e.Blob]
			if !checked {
				var ok bool
				if loc, ok = snap.FindBlob(e.Blob); !ok {
					loc.Seg = -1
					absent[e.Blob] = true
				}
				found[e.Blob] = loc
			}
			locs[k] = loc
		}
		located[i] = locs
	}
	return located, fresh, gone, len(absent)
}
