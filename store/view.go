package store

import (
	"context"
	"fmt"
	"math"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/gitindex"
)

// Want names what a query reads: resolved revisions, or the working tree.
type Want struct {
	// Commits are the revisions, resolved; the view lists them in this
	// order.
	Commits []gitindex.Commit
	// Worktree asks for HEAD with the working tree's uncommitted changes
	// instead of Commits: their listing (gitindex.WorktreeListing, files
	// over MaxFileSize listed as too large; 0: no limit), or Listing when
	// the caller made it already.
	Worktree    bool
	MaxFileSize int64
	Listing     *gitindex.Listing
	Head        gitindex.Commit // HEAD, with Listing
	// ByDelta leaves the entries of listings after the first unbuilt
	// (gitindex.ListingsByDelta): the caller reads them through Fresh and
	// Gone, or builds them (Listing.Full).
	ByDelta bool
	// CachedOnly lists only trees whose listing is cached: Open fails with
	// ErrNoIndex for the others instead of listing them from git.
	CachedOnly bool
}

// View is an opened, read-only view of the index for a query: one
// snapshot, each wanted revision's listing, and where each listed blob's
// rows are. Opening one never indexes anything (package indexer's Ensure
// does, then opens one). The caller closes it.
type View struct {
	Repo     *gitindex.Repo
	Want     Want
	Model    string // the vectors mapped ("" for none)
	Snap     *Snapshot
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
	Located [][]BlobLoc
	// Commit is the working tree's commit (HEAD, named "worktree") with
	// Want.Worktree.
	Commit    gitindex.Commit
	Pending   int      // distinct blobs of the listings that no segment holds
	Damaged   []string // parts of the index left out because they failed their checks
	NoVectors int      // chunks in segments without vectors of Model
	memo      memo     // what readers derived from this opening (Memo)
	stamp     stamp    // the files this opening read (Current)
}

// Open opens the index of want read-only, with the vectors of model ("":
// none). What is not indexed is counted as Pending. It fails with
// ErrNoIndex when there is no index, or a revision's listing is neither
// cached nor (with CachedOnly) listed from git, and with ErrSchema or
// ErrCorrupt when the index must be rebuilt.
func Open(ctx context.Context, repo *gitindex.Repo, want Want, model string) (*View, error) {
	v := &View{Repo: repo, Want: want, Model: model}
	if want.Worktree {
		if want.Listing == nil {
			limit := want.MaxFileSize
			if limit <= 0 {
				limit = math.MaxInt64
			}
			l, head, err := repo.WorktreeListing(ctx, limit)
			if err != nil {
				return nil, err
			}
			v.Want.Listing, v.Want.Head = l, head
		}
		v.Commit = v.Want.Head
		v.Commit.Rev = "worktree"
		v.Listings = []*gitindex.Listing{v.Want.Listing}
	} else {
		trees := make([]plumbing.Hash, len(want.Commits))
		for i, c := range want.Commits {
			trees[i] = c.Tree
		}
		read := repo.Listings
		if want.ByDelta {
			read = repo.ListingsByDelta
		}
		listings, errs := read(trees, want.CachedOnly)
		for i := range listings {
			if errs[i] != nil {
				return nil, fmt.Errorf("revision %s is not indexed: %w", want.Commits[i].Rev, ErrNoIndex)
			}
		}
		v.Listings = listings
	}
	return v, v.open()
}

// Reopen opens the snapshot again, as it is now: a query whose scan
// faulted because gc rewrote the log holding vectors it had mapped runs
// again on the segments as they are now.
func (v *View) Reopen() error {
	v.Close()
	v.stamp = stamp{} // not current until it opens again
	return v.open()
}

func (v *View) open() error {
	st := takeStamp(v.Repo.IndexDir, v.Model)
	snap, err := OpenSnapshot(v.Repo.IndexDir, v.Model)
	if err != nil {
		return err
	}
	v.Snap, v.stamp = snap, st
	v.memo.forget()
	v.Located, v.Fresh, v.Gone, v.Pending = locate(snap, v.Listings)
	v.Damaged = nil
	for _, d := range snap.Damaged {
		v.Damaged = append(v.Damaged, d.String())
	}
	v.NoVectors = 0
	if v.Model != "" {
		v.NoVectors = WithoutVectors(snap)
	}
	return nil
}

// Current reports whether the index on disk is still the one the view
// opened: the manifest, its segments' vector locators and their files are
// the ones the view read (stamp.go). A server that keeps a view across
// requests reads on with it while it is current, and opens the index
// again when it is not (an indexing run, a merge, gc, a rebuild or
// value-log garbage collection replaced one of them, or a segment file was
// written to). The revisions are the caller's to compare.
func (v *View) Current() bool {
	return v.Snap != nil && v.stamp.current(v.Repo.IndexDir)
}

// Close unmaps the snapshot.
func (v *View) Close() {
	if v != nil && v.Snap != nil {
		v.Snap.Close()
	}
}

// WithoutVectors counts the chunks in segments without vectors of the
// snapshot's model.
func WithoutVectors(snap *Snapshot) int {
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
func locate(snap *Snapshot, ls []*gitindex.Listing) (located [][]BlobLoc, fresh, gone [][]gitindex.Entry, missing int) {
	located, fresh, gone = make([][]BlobLoc, len(ls)), make([][]gitindex.Entry, len(ls)), make([][]gitindex.Entry, len(ls))
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
	found := make(map[plumbing.Hash]BlobLoc, total)
	for i := range ls {
		locs := make([]BlobLoc, len(fresh[i]))
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
