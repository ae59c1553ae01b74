package gitindex

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// HistoryOptions select the commits of a history walk.
type HistoryOptions struct {
	Revs        []string  // tips to walk from; default HEAD
	AllBranches bool      // also walk from every local branch
	Max         int       // commits per tip, newest first; 0: no limit
	Since       time.Time // stop at commits committed before this; zero: no limit
}

// HistoryCommit is one commit of a first-parent history.
type HistoryCommit struct {
	Commit
	Parent plumbing.Hash // first parent's tree; zero for a root commit
	When   time.Time     // committer time
	Author string
}

// History walks the first-parent history of each tip, newest first, and
// returns the distinct commits oldest first, so that each one's parent comes
// before it. Only first parents are followed: a merge counts as the one
// change it brought to its branch.
func (r *Repo) History(ctx context.Context, opts HistoryOptions) ([]HistoryCommit, error) {
	tips, err := r.HistoryTips(opts)
	if err != nil {
		return nil, err
	}
	seen := map[plumbing.Hash]bool{}
	var out []HistoryCommit
	for _, tip := range tips {
		var chain []HistoryCommit
		err = r.walkFirstParent(ctx, tip, func(c *object.Commit) bool {
			if seen[c.Hash] || (opts.Max > 0 && len(chain) >= opts.Max) ||
				(!opts.Since.IsZero() && c.Committer.When.Before(opts.Since)) {
				return false
			}
			seen[c.Hash] = true
			hc := HistoryCommit{Commit: Commit{Rev: c.Hash.String(), Hash: c.Hash, Tree: c.TreeHash},
				When: c.Committer.When, Author: c.Author.Name}
			if len(c.ParentHashes) > 0 {
				if p, err := r.walkCommit(c.ParentHashes[0]); err == nil {
					hc.Parent = p.TreeHash
				}
			}
			chain = append(chain, hc)
			return true
		})
		if err != nil {
			return nil, err
		}
		for i := len(chain) - 1; i >= 0; i-- {
			out = append(out, chain[i])
		}
	}
	return out, nil
}

// HistoryTips resolves the tips a history walk with opts starts from:
// opts.Revs (default HEAD), then with AllBranches every local branch,
// each commit once.
func (r *Repo) HistoryTips(opts HistoryOptions) ([]plumbing.Hash, error) {
	revs := append([]string(nil), opts.Revs...)
	if opts.AllBranches {
		iter, err := r.Git.Branches()
		if err != nil {
			return nil, fmt.Errorf("list branches: %w", err)
		}
		var names []string
		iter.ForEach(func(ref *plumbing.Reference) error {
			names = append(names, ref.Name().Short())
			return nil
		})
		sort.Strings(names)
		revs = append(revs, names...)
	}
	if len(revs) == 0 {
		revs = []string{"HEAD"}
	}
	var tips []plumbing.Hash
	seen := map[plumbing.Hash]bool{}
	for _, rev := range revs {
		tip, err := r.Resolve(rev)
		if err != nil {
			return nil, err
		}
		if !seen[tip.Hash] {
			seen[tip.Hash] = true
			tips = append(tips, tip.Hash)
		}
	}
	return tips, nil
}

// walkFirstParent calls fn for from and its first-parent ancestors, newest
// first, until fn returns false or the root is passed.
func (r *Repo) walkFirstParent(ctx context.Context, from plumbing.Hash, fn func(*object.Commit) bool) error {
	shallow := r.ShallowCommits()
	h := from
	for !h.IsZero() {
		if err := ctx.Err(); err != nil {
			return err
		}
		// The repository's own readers first: go-git's first lookup in a
		// pack reads its whole index (on git's own, 60 MB and 60 ms).
		c, err := r.walkCommit(h)
		if err != nil && h != from && shallow[h] {
			return nil // the history of a shallow clone ends here
		}
		if err != nil {
			return fmt.Errorf("walk history: %w", err)
		}
		if !fn(c) {
			return nil
		}
		h = plumbing.ZeroHash
		if len(c.ParentHashes) > 0 && !shallow[c.Hash] {
			h = c.ParentHashes[0]
		}
	}
	return nil
}

// walkCommit reads a commit for a history walk: with the repository's
// own readers, else go-git's, and without reopening the repository (a
// walk may run beside other readers of it).
func (r *Repo) walkCommit(h plumbing.Hash) (*object.Commit, error) {
	if c, ok := r.ownCommit(h); ok {
		return c, nil
	}
	r.gitMu.Lock()
	defer r.gitMu.Unlock()
	c, err := r.Git.CommitObject(h)
	if err != nil {
		return nil, fmt.Errorf("read commit %s: %w", h, err)
	}
	return c, nil
}

// ShallowCommits lists the commits at the boundary of a shallow clone
// (.git/shallow). Git takes each for a commit without parents, whatever
// its object names (the parents are, most often, not in the repository):
// its diff is against the empty tree, as a root commit's.
func (r *Repo) ShallowCommits() map[plumbing.Hash]bool {
	out := map[plumbing.Hash]bool{}
	b, err := os.ReadFile(filepath.Join(r.CommonDir, "shallow"))
	if err != nil {
		return out
	}
	for _, line := range strings.Fields(string(b)) {
		out[plumbing.NewHash(line)] = true
	}
	return out
}

// ReadCommit reads commit h.
func (r *Repo) ReadCommit(h plumbing.Hash) (*object.Commit, error) { return r.walkCommit(h) }
