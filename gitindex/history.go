package gitindex

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
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
	seen := map[plumbing.Hash]bool{}
	var out []HistoryCommit
	for _, rev := range revs {
		tip, err := r.Resolve(rev)
		if err != nil {
			return nil, err
		}
		var chain []HistoryCommit
		err = r.walkFirstParent(ctx, tip.Hash, func(c *object.Commit) bool {
			if seen[c.Hash] || (opts.Max > 0 && len(chain) >= opts.Max) ||
				(!opts.Since.IsZero() && c.Committer.When.Before(opts.Since)) {
				return false
			}
			seen[c.Hash] = true
			hc := HistoryCommit{Commit: Commit{Rev: c.Hash.String(), Hash: c.Hash, Tree: c.TreeHash},
				When: c.Committer.When, Author: c.Author.Name}
			if len(c.ParentHashes) > 0 {
				if p, err := r.Git.CommitObject(c.ParentHashes[0]); err == nil {
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

// walkFirstParent calls fn for from and its first-parent ancestors, newest
// first, until fn returns false or the root is passed.
func (r *Repo) walkFirstParent(ctx context.Context, from plumbing.Hash, fn func(*object.Commit) bool) error {
	shallow := r.shallowCommits()
	h := from
	for !h.IsZero() {
		if err := ctx.Err(); err != nil {
			return err
		}
		c, err := r.Git.CommitObject(h)
		if err != nil && h != from && shallow[h] {
			return nil // the history of a shallow clone ends here
		}
		if err != nil {
			return fmt.Errorf("walk history: read commit %s: %w", h, err)
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

// shallowCommits lists the commits at the boundary of a shallow clone
// (.git/shallow): their parents are not in the repository.
func (r *Repo) shallowCommits() map[plumbing.Hash]bool {
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

// ListHistory caches the tree listing of every commit (oldest first, as
// History returns them), deriving each from its parent's listing and the tree
// diff, so that a long history costs the size of its changes rather than
// commits × files. Indexer.Index then finds every listing cached.
func (r *Repo) ListHistory(ctx context.Context, commits []HistoryCommit) error {
	for _, c := range commits {
		if err := ctx.Err(); err != nil {
			return err
		}
		if _, _, err := r.ListingFrom(ctx, c.Tree, c.Parent); err != nil {
			return fmt.Errorf("list commit %s: %w", c.Hash, err)
		}
	}
	return nil
}

// IndexHistory indexes the commits History selects. Blobs shared between
// commits are processed once, so the cost grows with distinct blobs.
func (ix *Indexer) IndexHistory(ctx context.Context, opts HistoryOptions, lockWait time.Duration) (*Summary, error) {
	commits, err := ix.repo.History(ctx, opts)
	if err != nil {
		return nil, err
	}
	if err := ix.repo.ListHistory(ctx, commits); err != nil {
		return nil, err
	}
	revs := make([]string, len(commits))
	for i, c := range commits {
		revs[i] = c.Hash.String()
	}
	return ix.Index(ctx, revs, lockWait)
}

// atDate matches rev@{date}, with an optional suffix such as ~2 or ^.
var atDate = regexp.MustCompile(`^(.*?)@\{([^}]+)\}(.*)$`)

// resolveAtDate resolves "branch@{date}": the newest first-parent commit of
// the branch (HEAD when empty) committed at or before the date. Git would
// read the reflog, which clones lack and which forgets; history does not.
// ok is false when rev has no date part (numbers, "upstream" and the like are
// left to go-git).
func (r *Repo) resolveAtDate(rev string, now time.Time) (h plumbing.Hash, suffix string, ok bool, err error) {
	m := atDate.FindStringSubmatch(rev)
	if m == nil {
		return h, "", false, nil
	}
	when, ok := parseDate(m[2], now)
	if !ok {
		return h, "", false, nil
	}
	base := m[1]
	if base == "" {
		base = "HEAD"
	}
	tip, err := r.Git.ResolveRevision(plumbing.Revision(base))
	if err != nil || tip == nil || tip.IsZero() {
		return h, "", true, fmt.Errorf("%w %q: no branch, tag or commit named %q", ErrUnknownRevision, rev, base)
	}
	err = r.walkFirstParent(context.Background(), *tip, func(c *object.Commit) bool {
		if !c.Committer.When.After(when) {
			h = c.Hash
			return false
		}
		return true
	})
	if err != nil {
		return h, "", true, err
	}
	if h.IsZero() {
		return h, "", true, fmt.Errorf("%w %q: %s has no commit at or before %s", ErrUnknownRevision, rev, base, when.Format(time.RFC3339))
	}
	return h, m[3], true, nil
}

var agoRe = regexp.MustCompile(`^(\d+)[ .]*(second|minute|hour|day|week|month|year)s?[ .]*ago$`)

// parseDate reads the dates git accepts most often in @{...}: ISO dates and
// times (local time when no zone is given), "yesterday", "N days ago".
func parseDate(s string, now time.Time) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if _, err := strconv.Atoi(s); err == nil {
		return time.Time{}, false // @{N}: reflog entry, not a date
	}
	for _, layout := range []string{time.RFC3339, "2006-01-02 15:04:05 -0700", "2006-01-02 15:04:05", "2006-01-02T15:04:05", "2006-01-02 15:04", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, strings.ToUpper(s), now.Location()); err == nil {
			if layout == "2006-01-02" {
				t = t.Add(24*time.Hour - time.Second) // the whole day, as git reads a bare date
			}
			return t, true
		}
	}
	s = strings.ToLower(s)
	switch s {
	case "now":
		return now, true
	case "yesterday":
		return now.AddDate(0, 0, -1), true
	}
	m := agoRe.FindStringSubmatch(s)
	if m == nil {
		return time.Time{}, false
	}
	n, _ := strconv.Atoi(m[1])
	switch m[2] {
	case "second":
		return now.Add(-time.Duration(n) * time.Second), true
	case "minute":
		return now.Add(-time.Duration(n) * time.Minute), true
	case "hour":
		return now.Add(-time.Duration(n) * time.Hour), true
	case "day":
		return now.AddDate(0, 0, -n), true
	case "week":
		return now.AddDate(0, 0, -7*n), true
	case "month":
		return now.AddDate(0, -n, 0), true
	}
	return now.AddDate(-n, 0, 0), true
}
