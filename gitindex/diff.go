package gitindex

import (
	"context"
	"fmt"
	"path"
	"sort"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/gitattributes"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// TreeDiff says how a listing was obtained by ListingFrom.
type TreeDiff struct {
	Base     plumbing.Hash // tree whose cached listing was the starting point; zero after a full walk
	Added    int
	Modified int
	Deleted  int
	Cached   bool            // the listing was already cached; nothing was diffed
	Walked   bool            // no usable base (or .gitattributes changed): the tree was walked in full
	NewBlobs []plumbing.Hash // blobs of added or modified files, path-skipped ones excluded
	// Previous maps the path of each modified regular file to the blob it
	// had in Base: the version an edit can be chunked against (chunk.Edit).
	Previous map[string]plumbing.Hash
}

// ListingFrom returns the listing of tree to, like Listing, but derives it
// from the cached listing of the first base that has one plus the changes
// a tree diff reports, instead of walking the whole tree. Identical
// subtrees are skipped by hash, so the cost follows the size of the change,
// not of the repository. It falls back to a full walk when no base is cached
// or when a .gitattributes file changed (attributes can re-classify any
// file). The derived listing is cached under to.
func (r *Repo) ListingFrom(ctx context.Context, to plumbing.Hash, bases ...plumbing.Hash) (*Listing, *TreeDiff, error) {
	l, err := readListing(r.IndexDir, to)
	if err == nil {
		return l, &TreeDiff{Cached: true}, nil
	}
	r.listingDamaged(err)
	for _, base := range bases {
		if base.IsZero() || base == to {
			continue
		}
		old, err := readListing(r.IndexDir, base)
		if err != nil {
			continue
		}
		l, d, err := r.applyDiff(ctx, old, to)
		if err != nil && r.reopen() {
			l, d, err = r.applyDiff(ctx, old, to)
		}
		if err != nil {
			return nil, nil, err
		}
		if l == nil {
			break // attributes changed: walk
		}
		if err := writeListing(r.IndexDir, l); err != nil {
			return nil, nil, err
		}
		return l, d, nil
	}
	l, err = r.WalkTree(to)
	if err != nil && r.reopen() {
		l, err = r.WalkTree(to)
	}
	if err != nil {
		return nil, nil, err
	}
	if err := writeListing(r.IndexDir, l); err != nil {
		return nil, nil, err
	}
	return l, walkedDiff(l), nil
}

// walkedDiff is the diff of a listing walked in full: every blob is new.
func walkedDiff(l *Listing) *TreeDiff {
	d := &TreeDiff{Walked: true}
	for _, e := range l.Entries {
		if e.Skip == SkipNone {
			d.NewBlobs = append(d.NewBlobs, e.Blob)
		}
	}
	return d
}

// applyDiff returns old's listing changed into tree to's, or nil when a
// .gitattributes file changed.
func (r *Repo) applyDiff(ctx context.Context, old *Listing, to plumbing.Hash) (*Listing, *TreeDiff, error) {
	changes, err := r.diffTrees(ctx, old.Tree, to)
	if err != nil {
		return nil, nil, fmt.Errorf("diff trees %s..%s: %w", old.Tree, to, err)
	}
	d := &TreeDiff{Base: old.Tree}
	gone := map[string]bool{}
	var added []Entry
	for _, c := range changes {
		if path.Base(c.Path) == ".gitattributes" {
			return nil, nil, nil
		}
		switch {
		case c.deleted():
			d.Deleted++
			gone[c.Path] = true
			continue
		case c.added():
			d.Added++
		default:
			d.Modified++
			gone[c.Path] = true
			if c.From.Mode.IsRegular() && c.To.Mode.IsRegular() {
				if d.Previous == nil {
					d.Previous = map[string]plumbing.Hash{}
				}
				d.Previous[c.Path] = c.From.Hash
			}
		}
		added = append(added, entryFor(c.Path, c.To))
	}
	l := derivedListing(to, old, len(old.Entries)+len(added))
	var attrFiles []Entry
	for _, e := range old.Entries {
		if gone[e.Path] {
			continue
		}
		l.Entries = append(l.Entries, e)
		if path.Base(e.Path) == ".gitattributes" {
			attrFiles = append(attrFiles, e)
		}
	}
	if len(attrFiles) > 0 && len(added) > 0 {
		r.classify(added, attrFiles)
	}
	for _, e := range added {
		if e.Skip == SkipNone {
			d.NewBlobs = append(d.NewBlobs, e.Blob)
		}
	}
	// The kept entries are in path order already: merge in the added ones.
	sort.Slice(added, func(i, j int) bool { return added[i].Path < added[j].Path })
	l.Entries = mergeEntries(l.Entries, added)
	return l, d, nil
}

// mergeEntries merges two listings' entries, each sorted by path.
func mergeEntries(a, b []Entry) []Entry {
	if len(b) == 0 {
		return a
	}
	out := make([]Entry, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if b[0].Path < a[0].Path {
			out, b = append(out, b[0]), b[1:]
		} else {
			out, a = append(out, a[0]), a[1:]
		}
	}
	out = append(out, a...)
	return append(out, b...)
}

// entryFor classifies one file of a tree the way WalkTree does.
func entryFor(name string, te object.TreeEntry) Entry {
	switch te.Mode {
	case filemode.Symlink:
		return Entry{Path: name, Blob: te.Hash, Skip: SkipSymlink}
	case filemode.Submodule:
		return Entry{Path: name, Blob: te.Hash, Skip: SkipSubmodule}
	}
	return Entry{Path: name, Blob: te.Hash, Skip: pathSkip(name)}
}

// classify applies the unchanged .gitattributes files (in listing order,
// which is git's tree order, as WalkTree reads them) to new entries.
func (r *Repo) classify(entries []Entry, attrFiles []Entry) {
	var attrs []gitattributes.MatchAttribute
	for _, f := range attrFiles {
		a, err := r.readAttributes(f.Path, f.Blob)
		if err == nil {
			attrs = append(attrs, a...)
		}
	}
	if len(attrs) > 0 {
		applyAttributes(&Listing{Entries: entries}, attrs)
	}
}

// AncestorTrees returns the root trees of commit's parents, then of up to n
// further first-parent ancestors: the bases to derive its listing from.
// After a burst of commits or on a new branch the parent itself may never
// have been listed, while an older commit (the branch point) was.
func (r *Repo) AncestorTrees(commit plumbing.Hash, n int) []plumbing.Hash {
	return r.ancestorTrees(commit, n, nil)
}

// ancestorTrees is AncestorTrees, stopping after the first tree for which
// enough returns true: the commits beyond it are not read.
func (r *Repo) ancestorTrees(commit plumbing.Hash, n int, enough func(plumbing.Hash) bool) []plumbing.Hash {
	var out []plumbing.Hash
	c, err := r.commitObject(commit)
	if err != nil {
		return nil
	}
	for _, p := range c.ParentHashes {
		if pc, err := r.commitObject(p); err == nil {
			out = append(out, pc.TreeHash)
			if enough != nil && enough(pc.TreeHash) {
				return out
			}
		}
	}
	for i := 0; i < n && len(c.ParentHashes) > 0; i++ {
		if c, err = r.commitObject(c.ParentHashes[0]); err != nil {
			break
		}
		if i > 0 {
			out = append(out, c.TreeHash)
			if enough != nil && enough(c.TreeHash) {
				return out
			}
		}
	}
	return out
}

// CommitListing returns a commit's listing: cached, else derived from the
// nearest listed ancestor with a tree diff, else walked.
func (r *Repo) CommitListing(ctx context.Context, c Commit) (*Listing, error) {
	l, _, err := r.CommitListingDiff(ctx, c)
	return l, err
}

// CommitListingDiff is CommitListing with the tree diff it was derived by (nil
// when it was cached).
func (r *Repo) CommitListingDiff(ctx context.Context, c Commit) (*Listing, *TreeDiff, error) {
	if l, err := r.CachedListing(c.Tree); err == nil {
		return l, nil, nil
	}
	// ListingFrom starts from the first base with a cached listing: the
	// ancestors past it (up to maxListingAncestors commits) are not read.
	listed := func(t plumbing.Hash) bool { return ListingCached(r.IndexDir, t) }
	return r.ListingFrom(ctx, c.Tree, r.ancestorTrees(c.Hash, maxListingAncestors, listed)...)
}

// maxListingAncestors bounds how far back CommitListing looks for a listed
// ancestor before walking the tree.
const maxListingAncestors = 64
