package pickaxe

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/cache"
)

// The side table holds the commits off a tip's first-parent history (the
// commits of merged branches, which plain git log walks too), each with
// its changes against its first parent and the records of git's patches,
// in segments of the change table's format under IndexDir/changes/side,
// one file per segment named by its newest commit. Its commits are in no
// order; each is decided alone.

// maxSideFiles is how many segments the side table may hold before it is
// dropped, to be listed again as one by the next history index: every
// query that lists a few new side commits adds one.
const maxSideFiles = 64

func sideDir(indexDir string) string { return filepath.Join(indexDir, "changes", "side") }

// sideName is the cache entry of the side segment of that name.
func sideName(name string) string { return filepath.Join("changes", "side", name) }

// Side returns the commits of hashes the side table holds, with their
// changes and records. The ones it lacks are listed and added when build
// is set, or when they are at most queryDiffCommits; the others are left
// out of the answer.
func Side(ctx context.Context, repo *gitindex.Repo, hashes []plumbing.Hash, build bool) (map[plumbing.Hash]*Commit, error) {
	out := loadSide(repo.IndexDir)
	var missing []plumbing.Hash
	for _, h := range hashes {
		if out[h] == nil {
			missing = append(missing, h)
		}
	}
	if len(missing) == 0 || (!build && len(missing) > queryDiffCommits) {
		return out, nil
	}
	for lo := 0; lo < len(missing); lo += segmentCommits {
		batch := missing[lo:min(len(missing), lo+segmentCommits)]
		cs, err := addSide(ctx, repo, batch)
		if err != nil {
			return out, err
		}
		for i := range cs {
			out[cs[i].Hash] = &cs[i]
		}
	}
	return out, nil
}

// BuildSide brings the side table of tip up to date: the commits reachable
// from tip but not on its first-parent history, merges aside (git log
// diffs none without -m). A history index calls it after BuildHistory.
func BuildSide(ctx context.Context, r *gitindex.Repo, tip plumbing.Hash) error {
	hist, err := History(ctx, r, tip, nil)
	if err != nil {
		return err
	}
	onLine := make(map[plumbing.Hash]bool, len(hist))
	for _, c := range hist {
		onLine[c.Hash] = true
	}
	cmd := exec.CommandContext(ctx, "git", "--git-dir="+r.CommonDir, "rev-list", "--no-merges", tip.String())
	b, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("list the commits of %s: %w", tip, err)
	}
	var side []plumbing.Hash
	for _, line := range strings.Fields(string(b)) {
		if h := plumbing.NewHash(line); !onLine[h] {
			side = append(side, h)
		}
	}
	_, err = Side(ctx, r, side, true)
	return err
}

// loadSide reads every segment of the side table; a damaged one is removed.
func loadSide(indexDir string) map[plumbing.Hash]*Commit {
	out := map[plumbing.Hash]*Commit{}
	entries, _ := os.ReadDir(sideDir(indexDir))
	var files []string
	for _, e := range entries {
		if len(e.Name()) == 40 && !e.IsDir() {
			files = append(files, e.Name())
		}
	}
	if len(files) > maxSideFiles {
		os.RemoveAll(sideDir(indexDir))
		return out
	}
	for _, name := range files {
		p := filepath.Join(sideDir(indexDir), name)
		s, err := readSegmentFile(cache.Dir(indexDir), sideName(name), plumbing.NewHash(name))
		if err != nil {
			os.Remove(p)
			os.Remove(diffsPath(p))
			continue
		}
		if d, err := openDiffs(p, s.changes()); err == nil {
			s.attach(d)
		} else if !os.IsNotExist(err) {
			os.Remove(diffsPath(p))
		}
		for i := range s.commits {
			out[s.commits[i].Hash] = &s.commits[i]
		}
	}
	return out
}

// addSide lists the changes of commits against their first parents (a
// root commit's, or a shallow clone's boundary commit's, against the
// empty tree), writes them as a segment of the side table with their records, and
// returns them.
func addSide(ctx context.Context, r *gitindex.Repo, hashes []plumbing.Hash) ([]Commit, error) {
	repo := r
	shallow := repo.ShallowCommits()
	cs := make([]Commit, 0, len(hashes))
	parents := make([]plumbing.Hash, 0, len(hashes))
	for _, h := range hashes {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		c, err := repo.ReadCommit(h)
		if err != nil {
			return nil, err
		}
		// A commit at a shallow clone's boundary has no parent to git:
		// it is diffed against the empty tree, as a root commit is.
		var parent plumbing.Hash
		if len(c.ParentHashes) > 0 && !shallow[h] {
			p, err := repo.ReadCommit(c.ParentHashes[0])
			if err != nil {
				return nil, err
			}
			parent = p.TreeHash
		}
		changes, err := repo.FileChanges(ctx, parent, c.TreeHash)
		if err != nil {
			return nil, err
		}
		subject, _, _ := strings.Cut(strings.TrimLeft(c.Message, "\n"), "\n")
		cs = append(cs, Commit{Hash: h, Tree: c.TreeHash, When: c.Author.When, Author: c.Author.Name, Subject: subject, Changes: changes})
		parents = append(parents, parent)
	}
	if len(cs) == 0 {
		return nil, nil
	}
	s := &segment{commits: cs}
	name := sideName(cs[len(cs)-1].Hash.String())
	// A cache: a store that cannot be written, or an entry another writer
	// holds, costs the next query the listing again.
	if ok, err := writeSegmentFile(cache.Dir(repo.IndexDir), name, s); err == nil && ok {
		b := &builder{repo: repo, opts: readDiffOptions(ctx, repo.CommonDir)}
		if err := b.addDiffs(ctx, s, plumbing.ZeroHash, parents, name); err != nil {
			return nil, err
		}
	}
	return s.commits, nil
}
