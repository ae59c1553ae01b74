package gitindex

import (
	"context"
	"fmt"
)

// ListHistory calls each with the tree listing of every commit, in the
// order given (oldest first, as History returns them), deriving each from
// its parent's listing and the tree diff, so that a long history costs the
// size of its changes rather than commits × files; none is held once the
// next is derived. The diff says, for a listing derived from its parent's,
// what each modified file was before (TreeDiff.Previous): the version an
// edit is chunked against. A listing cached before comes with a diff that
// says only so.
//
// The listings it derives are cached in one pack (packWriter), each as a
// delta against its parent's when the chain allows it: the pack is
// written when the call returns, an error or a cancelled context
// included, with every listing derived until then.
func (r *Repo) ListHistory(ctx context.Context, commits []HistoryCommit, each func(*Listing, *TreeDiff) error) (err error) {
	w := newPackWriter(r.IndexDir)
	ld := &listingLoader{dir: r.IndexDir, w: w}
	defer func() {
		ld.close()
		if ferr := w.finish(); err == nil {
			err = ferr
		}
	}()
	var prev *Listing
	for _, c := range commits {
		if err := ctx.Err(); err != nil {
			return err
		}
		l, d, err := r.historyListing(ctx, ld, c, prev)
		if err != nil {
			return fmt.Errorf("list commit %s: %w", c.Hash, err)
		}
		if err := each(l, d); err != nil {
			return err
		}
		prev = l
	}
	return nil
}

// historyListing returns the listing of c: cached, else derived from its
// parent's (prev when it is the parent's, else the cached one) and
// written to ld's pack.
func (r *Repo) historyListing(ctx context.Context, ld *listingLoader, c HistoryCommit, prev *Listing) (*Listing, *TreeDiff, error) {
	l, err := ld.read(c.Tree)
	if err == nil {
		return l, &TreeDiff{Cached: true}, nil
	}
	r.listingDamaged(err)
	parent := prev
	if parent == nil || parent.Tree != c.Parent || parent.chain == 0 {
		parent = nil
		if !c.Parent.IsZero() {
			parent, _ = ld.read(c.Parent)
		}
	}
	var d *TreeDiff
	if parent != nil {
		l, d, err = r.applyDiff(ctx, parent, c.Tree)
		if err != nil && r.reopen() {
			l, d, err = r.applyDiff(ctx, parent, c.Tree)
		}
		if err != nil {
			return nil, nil, err
		}
	}
	if l == nil { // no parent, or attributes changed: walk
		if l, err = r.WalkTree(c.Tree); err != nil && r.reopen() {
			l, err = r.WalkTree(c.Tree)
		}
		if err != nil {
			return nil, nil, err
		}
		d = walkedDiff(l)
	}
	if err := ld.w.add(l, parent); err != nil {
		return nil, nil, err
	}
	return l, d, nil
}
