package share

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"sort"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/bcindex/bcindex/gitindex"
)

// writeShareCommit writes the fan-out tree of entries and a commit of it.
func writeShareCommit(r *gitindex.Repo, entries map[string]map[string]plumbing.Hash, parents []plumbing.Hash, msg string) (plumbing.Hash, error) {
	root := &object.Tree{}
	for dir, names := range entries {
		sub := &object.Tree{}
		for name, h := range names {
			sub.Entries = append(sub.Entries, object.TreeEntry{Name: name, Mode: filemode.Regular, Hash: h})
		}
		th, err := writeTree(r, sub)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		root.Entries = append(root.Entries, object.TreeEntry{Name: dir, Mode: filemode.Dir, Hash: th})
	}
	th, err := writeTree(r, root)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	sig := object.Signature{Name: "git-bcindex", Email: "git-bcindex@localhost", When: time.Now()}
	c := &object.Commit{Author: sig, Committer: sig, TreeHash: th, ParentHashes: parents, Message: msg}
	obj := r.Git.Storer.NewEncodedObject()
	if err := c.Encode(obj); err != nil {
		return plumbing.ZeroHash, fmt.Errorf("share: encode commit: %w", err)
	}
	ch, err := r.Git.Storer.SetEncodedObject(obj)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("share: write commit: %w", err)
	}
	return ch, nil
}

func containsHash(hs []plumbing.Hash, h plumbing.Hash) bool {
	for _, x := range hs {
		if x == h {
			return true
		}
	}
	return false
}

func writeObject(r *gitindex.Repo, t plumbing.ObjectType, data []byte) (plumbing.Hash, error) {
	obj := r.Git.Storer.NewEncodedObject()
	obj.SetType(t)
	obj.SetSize(int64(len(data)))
	w, err := obj.Writer()
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("share: write object: %w", err)
	}
	if _, err := w.Write(data); err != nil {
		return plumbing.ZeroHash, fmt.Errorf("share: write object: %w", err)
	}
	w.Close()
	h, err := r.Git.Storer.SetEncodedObject(obj)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("share: write object: %w", err)
	}
	return h, nil
}

func writeTree(r *gitindex.Repo, t *object.Tree) (plumbing.Hash, error) {
	sort.Slice(t.Entries, func(i, j int) bool { return t.Entries[i].Name < t.Entries[j].Name })
	obj := r.Git.Storer.NewEncodedObject()
	if err := t.Encode(obj); err != nil {
		return plumbing.ZeroHash, fmt.Errorf("share: encode tree: %w", err)
	}
	h, err := r.Git.Storer.SetEncodedObject(obj)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("share: write tree: %w", err)
	}
	return h, nil
}

// readShareTree adds the entries of a share commit's tree to entries.
func readShareTree(r *gitindex.Repo, commit plumbing.Hash, entries map[string]map[string]plumbing.Hash) error {
	return forEachShareEntry(r, commit, func(dir, name string, h plumbing.Hash) error {
		if entries[dir] == nil {
			entries[dir] = map[string]plumbing.Hash{}
		}
		entries[dir][name] = h
		return nil
	})
}

func forEachShareEntry(r *gitindex.Repo, commit plumbing.Hash, fn func(dir, name string, h plumbing.Hash) error) error {
	return forEachEntry(r, commit, 40, fn)
}

// forEachEntry calls fn with each entry of a fan-out tree <ab>/<cdef…>
// whose name is n hex digits long in all: 40 for a blob SHA (the index
// share), 32 for a content hash (summaries).
func forEachEntry(r *gitindex.Repo, commit plumbing.Hash, n int, fn func(dir, name string, h plumbing.Hash) error) error {
	c, err := r.Git.CommitObject(commit)
	if err != nil {
		return fmt.Errorf("share: read commit %s: %w", commit, err)
	}
	root, err := r.Git.TreeObject(c.TreeHash)
	if err != nil {
		return fmt.Errorf("share: read tree %s: %w", c.TreeHash, err)
	}
	for _, d := range root.Entries {
		if d.Mode != filemode.Dir || len(d.Name) != 2 {
			continue
		}
		sub, err := r.Git.TreeObject(d.Hash)
		if err != nil {
			return fmt.Errorf("share: read tree %s: %w", d.Hash, err)
		}
		for _, e := range sub.Entries {
			if len(d.Name)+len(e.Name) != n || e.Mode != filemode.Regular {
				continue
			}
			if err := fn(d.Name, e.Name, e.Hash); err != nil {
				return err
			}
		}
	}
	return nil
}

// fetchShareRefs fetches remote's Ref and legacyShareRef, each into
// its remoteShareRef, in one listing and one fetch, and returns the commits
// of those the remote has, Ref's first.
func fetchShareRefs(ctx context.Context, r *gitindex.Repo, remote, model string) ([]plumbing.Hash, error) {
	refs := []plumbing.ReferenceName{Ref(model), legacyShareRef(model)}
	out, err := gitOutput(ctx, r, "ls-remote", remote, string(refs[0]), string(refs[1]))
	if err != nil {
		return nil, fmt.Errorf("list %s on %s: %w", refs[0], remote, err)
	}
	has := map[plumbing.ReferenceName]bool{}
	for _, line := range strings.Split(out, "\n") {
		if _, name, ok := strings.Cut(strings.TrimSpace(line), "\t"); ok {
			has[plumbing.ReferenceName(name)] = true
		}
	}
	args := []string{"fetch", "--quiet", "--no-tags", remote}
	var present []plumbing.ReferenceName
	for _, ref := range refs {
		if has[ref] {
			present = append(present, ref)
			args = append(args, "+"+string(ref)+":"+string(remoteShareRef(remote, ref)))
		}
	}
	if len(present) == 0 {
		return nil, nil
	}
	if err := runGit(ctx, r, args...); err != nil {
		return nil, fmt.Errorf("fetch %s from %s: %w", present[0], remote, err)
	}
	var hs []plumbing.Hash
	for _, ref := range present {
		got, err := r.Git.Reference(remoteShareRef(remote, ref), true)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", remoteShareRef(remote, ref), err)
		}
		hs = append(hs, got.Hash())
	}
	return hs, nil
}

// fetchRef fetches remote's ref into local and returns its commit, or zero
// when the remote has none.
func fetchRef(ctx context.Context, r *gitindex.Repo, remote string, ref, local plumbing.ReferenceName) (plumbing.Hash, error) {
	out, err := gitOutput(ctx, r, "ls-remote", remote, string(ref))
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("list %s on %s: %w", ref, remote, err)
	}
	if strings.TrimSpace(out) == "" {
		return plumbing.ZeroHash, nil
	}
	if err := runGit(ctx, r, "fetch", "--quiet", "--no-tags", remote, "+"+string(ref)+":"+string(local)); err != nil {
		return plumbing.ZeroHash, fmt.Errorf("fetch %s from %s: %w", ref, remote, err)
	}
	got, err := r.Git.Reference(local, true)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("read %s: %w", local, err)
	}
	return got.Hash(), nil
}

func runGit(ctx context.Context, r *gitindex.Repo, args ...string) error {
	_, err := gitOutput(ctx, r, args...)
	return err
}

func gitOutput(ctx context.Context, r *gitindex.Repo, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"--git-dir", r.GitDir}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return "", fmt.Errorf("git %s: %s", args[0], msg)
	}
	return string(out), nil
}
