package pickaxe

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/cache"
)

// segmentCommits is how many newly listed commits go into one segment: a
// long history is written as it is diffed, so an interrupted first query
// leaves its work for the next.
const segmentCommits = 2000

// maxChain is how many segments a history may be read from before the
// small ones on top are written again as one: every tip queried adds a
// segment on top of the one it continues.
const maxChain = 32

// queryDiffCommits is how many new commits a query diffs with git's diff
// as well, for the records -S and -G read instead of blobs. A history
// index records every commit (BuildHistory); a query that lists more
// than a few new commits leaves them to it, and reads their blobs.
var queryDiffCommits = 256

// History returns the first-parent history of tip, oldest first, each
// commit with its changes against its first parent (a root commit, or the
// boundary commit of a shallow clone, against the empty tree). The part of
// the history already in the change table is read from it; the rest is
// diffed and added to it, with progress (if not nil) called after each
// commit diffed.
func History(ctx context.Context, repo *gitindex.Repo, tip plumbing.Hash, progress func(done, total int)) ([]Commit, error) {
	return history(ctx, repo, tip, progress, false)
}

// BuildHistory brings the change table of tip's first-parent history up
// to date with a record of every change (git's patch without context), so
// that no query reads a blob or diffs a tree for changes git prints a
// patch of. A history index calls it.
func BuildHistory(ctx context.Context, repo *gitindex.Repo, tip plumbing.Hash, progress func(done, total int)) error {
	_, err := history(ctx, repo, tip, progress, true)
	return err
}

func history(ctx context.Context, repo *gitindex.Repo, tip plumbing.Hash, progress func(done, total int), allDiffs bool) ([]Commit, error) {
	var fresh []Commit // newest first
	var known []*segment
	err := repo.WalkFirstParent(ctx, tip, func(c *object.Commit) bool {
		if segs, err := loadChain(repo.IndexDir, c.Hash); err == nil {
			known = segs
			return false
		}
		subject, _, _ := strings.Cut(strings.TrimLeft(c.Message, "\n"), "\n")
		fresh = append(fresh, Commit{Hash: c.Hash, Tree: c.TreeHash, When: c.Author.When,
			Author: c.Author.Name, Subject: subject})
		return true
	})
	if err != nil {
		return nil, err
	}
	b := &builder{repo: repo, progress: progress}
	if allDiffs {
		b.opts = readDiffOptions(ctx, repo.CommonDir)
		for i, s := range known {
			if s.diffs != nil && s.diffs.opts == b.opts.String() {
				continue
			}
			var parent plumbing.Hash
			if i > 0 {
				parent = lastTree(known[i-1].commits)
			}
			if err := b.addDiffs(ctx, s, parent, nil, segmentName(s.commits[len(s.commits)-1].Hash)); err != nil {
				return nil, err
			}
		}
	}
	if len(fresh) == 0 {
		return flatten(known), nil
	}
	if len(known)+1 > maxChain {
		// The small segments on top are written again, with the new
		// commits, as one: the full ones below stay as they are.
		k := len(known)
		for k > 0 && len(known[k-1].commits) < segmentCommits {
			k--
		}
		for _, s := range known[k:] {
			fresh = append(fresh, reversed(s.commits)...)
		}
		known = known[:k]
	}
	if !allDiffs && len(fresh) <= queryDiffCommits {
		b.opts = readDiffOptions(ctx, repo.CommonDir)
		allDiffs = true
	}
	var base, parentTree plumbing.Hash
	if len(known) > 0 {
		last := known[len(known)-1].commits
		base, parentTree = last[len(last)-1].Hash, last[len(last)-1].Tree
	}
	all := flatten(known)
	batch := make([]Commit, 0, min(len(fresh), segmentCommits))
	for i := len(fresh) - 1; i >= 0; i-- {
		c := fresh[i]
		if c.Changes == nil {
			if c.Changes, err = repo.FileChanges(ctx, parentTree, c.Tree); err != nil {
				return nil, err
			}
		}
		parentTree = c.Tree
		batch = append(batch, c)
		if progress != nil {
			progress(len(fresh)-i, len(fresh))
		}
		if len(batch) == segmentCommits || i == 0 {
			s := &segment{base: base, commits: batch}
			// The table is a cache: a store that cannot be written (a
			// read-only clone) costs the next query its diffs, nothing more.
			// A held lock: another writer is writing this segment.
			if ok, werr := writeSegment(repo.IndexDir, s); werr == nil && ok && allDiffs {
				if err := b.addDiffs(ctx, s, lastTree(all), nil, segmentName(c.Hash)); err != nil {
					return nil, err
				}
			}
			base = c.Hash
			all = append(all, s.commits...)
			batch = make([]Commit, 0, min(i, segmentCommits))
		}
	}
	return all, nil
}

// builder adds the records of git's diffs to segments.
type builder struct {
	repo     *gitindex.Repo
	opts     diffOptions
	progress func(done, total int)
}

// lastTree is the tree of the last of cs (zero for none).
func lastTree(cs []Commit) plumbing.Hash {
	if len(cs) == 0 {
		return plumbing.ZeroHash
	}
	return cs[len(cs)-1].Tree
}

// addDiffs writes the diffs file of segment s, the cache entry name, and
// attaches it to s's commits. Each commit is diffed against the tree of
// the one before it, the first against parent (zero: none), unless
// parents gives each commit's parent tree.
func (b *builder) addDiffs(ctx context.Context, s *segment, parent plumbing.Hash, parents []plumbing.Hash, name string) error {
	pairs := make([]diffPair, len(s.commits))
	for i, c := range s.commits {
		from := parent
		if parents != nil {
			from = parents[i]
		} else if i > 0 {
			from = s.commits[i-1].Tree
		}
		if from.IsZero() {
			from = emptyTree
		}
		p := diffPair{from: from, to: c.Tree, changes: make([]changeKey, len(c.Changes))}
		for j, ch := range c.Changes {
			p.changes[j] = changeKey{ch.From, ch.To}
			if ch.From == ch.To {
				p.changes[j] = changeKey{} // a mode change: no record
			}
		}
		pairs[i] = p
	}
	w := &diffsWriter{opts: b.opts}
	err := gitDiffs(ctx, b.repo.CommonDir, b.opts, pairs, func(pair, change int, rec []byte) error {
		k := pairs[pair].changes[change]
		w.add(rec, func(yield func([]byte)) error {
			for _, h := range []plumbing.Hash{k.from, k.to} {
				if h.IsZero() {
					continue
				}
				b, err := b.repo.ReadBlob(h)
				if err != nil {
					return err
				}
				yield(b)
			}
			return nil
		})
		return nil
	})
	if err != nil {
		return fmt.Errorf("record the changes of %s: %w", s.commits[len(s.commits)-1].Hash, err)
	}
	dir := cache.Dir(b.repo.IndexDir)
	if ok, err := w.write(dir, name); err != nil || !ok {
		return nil // a cache: the queries read blobs instead
	}
	d, err := openDiffs(dir.Path(name), s.changes())
	if err != nil {
		return nil
	}
	s.attach(d)
	return nil
}

// changes is the number of changes of the segment's commits.
func (s *segment) changes() int {
	n := 0
	for _, c := range s.commits {
		n += len(c.Changes)
	}
	return n
}

// attach gives each commit its records in d.
func (s *segment) attach(d *diffsFile) {
	s.diffs = d
	n := 0
	for i := range s.commits {
		s.commits[i].diffs, s.commits[i].change0 = d, n
		n += len(s.commits[i].Changes)
	}
}

// loadChain reads the segment whose newest commit is newest and the
// segments below it, oldest first, with the records of their diffs files.
// A damaged segment or diffs file is removed, to be built again.
func loadChain(indexDir string, newest plumbing.Hash) ([]*segment, error) {
	var segs []*segment
	for h := newest; !h.IsZero(); {
		s, err := readSegment(indexDir, h)
		if errors.Is(err, errBadSegment) {
			os.Remove(segmentPath(indexDir, h))
			os.Remove(diffsPath(segmentPath(indexDir, h)))
		}
		if err != nil {
			return nil, err
		}
		if len(segs) > 4*maxChain {
			return nil, errBadSegment // a cycle: no real table is this deep
		}
		p := segmentPath(indexDir, h)
		if d, err := openDiffs(p, s.changes()); err == nil {
			s.attach(d)
		} else if !errors.Is(err, os.ErrNotExist) {
			os.Remove(diffsPath(p))
		}
		segs = append(segs, s)
		h = s.base
	}
	for i, j := 0, len(segs)-1; i < j; i, j = i+1, j-1 {
		segs[i], segs[j] = segs[j], segs[i]
	}
	return segs, nil
}

// flatten returns the commits of segs, oldest first.
func flatten(segs []*segment) []Commit {
	n := 0
	for _, s := range segs {
		n += len(s.commits)
	}
	out := make([]Commit, 0, n)
	for _, s := range segs {
		out = append(out, s.commits...)
	}
	return out
}

func reversed(cs []Commit) []Commit {
	out := make([]Commit, len(cs))
	for i, c := range cs {
		out[len(cs)-1-i] = c
	}
	return out
}
