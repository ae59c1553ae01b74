package pickaxe

import (
	"context"
	"errors"
	"os"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/bcindex/bcindex/gitindex"
)

// segmentCommits is how many newly listed commits go into one segment: a
// long history is written as it is diffed, so an interrupted first query
// leaves its work for the next.
const segmentCommits = 2000

// maxChain is how many segments a history may be read from before a query
// writes it again as one: every tip queried adds a segment on top of the
// one it continues.
const maxChain = 32

// History returns the first-parent history of tip, oldest first, each
// commit with its changes against its first parent (a root commit, or the
// boundary commit of a shallow clone, against the empty tree). The part of
// the history already in the change table is read from it; the rest is
// diffed and added to it, with progress (if not nil) called after each
// commit diffed.
func History(ctx context.Context, repo *gitindex.Repo, tip plumbing.Hash, progress func(done, total int)) ([]Commit, error) {
	var fresh []Commit // newest first
	var known []Commit
	depth := 0
	err := repo.WalkFirstParent(ctx, tip, func(c *object.Commit) bool {
		if cs, d, err := loadChain(repo.IndexDir, c.Hash); err == nil {
			known, depth = cs, d
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
	if len(fresh) == 0 {
		return known, nil
	}
	if depth+1 > maxChain {
		// Written again from the root below, as one segment per batch.
		fresh = append(fresh, reversed(known)...)
		known = nil
	}
	all := known
	var base, parentTree plumbing.Hash
	if len(known) > 0 {
		base, parentTree = known[len(known)-1].Hash, known[len(known)-1].Tree
	}
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
			// The table is a cache: a store that cannot be written (a
			// read-only clone) costs the next query its diffs, nothing more.
			_ = writeSegment(repo.IndexDir, &segment{base: base, commits: batch})
			base = c.Hash
			all = append(all, batch...)
			batch = make([]Commit, 0, min(i, segmentCommits))
		}
	}
	return all, nil
}

// loadChain reads the segment whose newest commit is newest and the
// segments below it, oldest commit first, and how many segments they were.
// A damaged segment is removed, to be built again.
func loadChain(indexDir string, newest plumbing.Hash) ([]Commit, int, error) {
	var segs []*segment
	for h := newest; !h.IsZero(); {
		s, err := readSegment(indexDir, h)
		if errors.Is(err, errBadSegment) {
			os.Remove(segmentPath(indexDir, h))
		}
		if err != nil {
			return nil, 0, err
		}
		if len(segs) > 4*maxChain {
			return nil, 0, errBadSegment // a cycle: no real table is this deep
		}
		segs = append(segs, s)
		h = s.base
	}
	var out []Commit
	for i := len(segs) - 1; i >= 0; i-- {
		out = append(out, segs[i].commits...)
	}
	return out, len(segs), nil
}

func reversed(cs []Commit) []Commit {
	out := make([]Commit, len(cs))
	for i, c := range cs {
		out[len(cs)-1-i] = c
	}
	return out
}
