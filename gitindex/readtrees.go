package gitindex

import (
	"context"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"
)

// ReadTrees calls each with the listing of every tree in trees, in order,
// and caches none: a listing cached before is read, any other is derived
// from the previous tree's listing and their tree diff (as ListingFrom
// derives one, so that many similar trees cost what differs between them)
// or walked when there is none or a .gitattributes file changed. It is for
// a caller that reads many trees once, such as gc computing what the refs
// reach, and must not leave the cache larger for it.
func (r *Repo) ReadTrees(ctx context.Context, trees []plumbing.Hash, each func(*Listing) error) error {
	var prev *Listing
	for _, t := range trees {
		if err := ctx.Err(); err != nil {
			return err
		}
		l, err := r.readTree(ctx, t, prev)
		if err != nil {
			return fmt.Errorf("list tree %s: %w", t, err)
		}
		if err := each(l); err != nil {
			return err
		}
		prev = l
	}
	return nil
}

// readTree is one tree of ReadTrees, derived from prev when it is not nil.
func (r *Repo) readTree(ctx context.Context, t plumbing.Hash, prev *Listing) (*Listing, error) {
	l, err := readListing(r.IndexDir, t)
	if err == nil {
		return l, nil
	}
	r.listingDamaged(err)
	if prev != nil {
		l, _, err := r.applyDiff(ctx, prev, t)
		if err != nil && r.reopen() {
			l, _, err = r.applyDiff(ctx, prev, t)
		}
		if err != nil || l != nil {
			return l, err
		}
	}
	l, err = r.WalkTree(t)
	if err != nil && r.reopen() {
		l, err = r.WalkTree(t)
	}
	return l, err
}
