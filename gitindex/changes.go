package gitindex

import (
	"context"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// FileChange is one path whose content or mode differs between two trees,
// as `git diff-tree -r --no-renames` reports it: From is zero for an added
// path, To for a deleted one. Submodules appear with filemode.Submodule and
// the commit they point at.
type FileChange struct {
	Path             string
	From, To         plumbing.Hash
	FromMode, ToMode filemode.FileMode
}

// FileChanges lists the paths that differ between trees from and to (the
// zero hash is the empty tree), without reading subtrees both share.
func (r *Repo) FileChanges(ctx context.Context, from, to plumbing.Hash) ([]FileChange, error) {
	cs, err := r.diffTrees(ctx, from, to)
	if err != nil {
		return nil, err
	}
	out := make([]FileChange, len(cs))
	for i, c := range cs {
		out[i] = FileChange{Path: c.Path, From: c.From.Hash, To: c.To.Hash, FromMode: c.From.Mode, ToMode: c.To.Mode}
	}
	return out, nil
}

// WalkFirstParent calls fn for from and its first-parent ancestors, newest
// first, until fn returns false or the root (or a shallow clone's
// boundary) is passed.
func (r *Repo) WalkFirstParent(ctx context.Context, from plumbing.Hash, fn func(*object.Commit) bool) error {
	return r.walkFirstParent(ctx, from, fn)
}

// ChangedEntries returns the indexable entries of b whose path is new or
// whose blob differs from a's.
func ChangedEntries(a, b *Listing) []Entry {
	var out []Entry
	i := 0
	for _, e := range b.Entries {
		for i < len(a.Entries) && a.Entries[i].Path < e.Path {
			i++
		}
		if e.Skip != SkipNone {
			continue
		}
		if i < len(a.Entries) && a.Entries[i].Path == e.Path && a.Entries[i].Blob == e.Blob {
			continue
		}
		out = append(out, e)
	}
	return out
}
