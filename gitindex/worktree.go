package gitindex

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"

	"github.com/go-git/go-git/v5/plumbing"
)

// WorktreeListing returns HEAD's listing with the working tree's changes
// applied: modified, added and untracked (not ignored) files are hashed to
// the blob SHAs git would give them and stored in the object database as
// loose blobs, as `git add` would, so the indexer and snippets read them like
// any other blob; deleted files are dropped. Files over maxSize are listed as
// too large without being stored. The listing's Tree is the zero hash: it is
// never cached.
func (r *Repo) WorktreeListing(ctx context.Context, maxSize int64) (*Listing, Commit, error) {
	if r.WorkTree == "" {
		return nil, Commit{}, fmt.Errorf("--worktree: the repository is bare")
	}
	head, err := r.Resolve("HEAD")
	if err != nil {
		return nil, Commit{}, err
	}
	base, err := r.Listing(head.Tree)
	if err != nil {
		return nil, Commit{}, err
	}
	changed, err := r.changedFiles(ctx)
	if err != nil {
		return nil, Commit{}, err
	}
	byPath := make(map[string]Entry, len(base.Entries))
	for _, e := range base.Entries {
		byPath[e.Path] = e
	}
	for _, p := range changed {
		full := filepath.Join(r.WorkTree, filepath.FromSlash(p))
		fi, err := os.Lstat(full)
		if os.IsNotExist(err) {
			delete(byPath, p)
			continue
		}
		if err != nil {
			return nil, Commit{}, fmt.Errorf("--worktree: %w", err)
		}
		if !fi.Mode().IsRegular() {
			if fi.Mode()&os.ModeSymlink != 0 {
				byPath[p] = Entry{Path: p, Skip: SkipSymlink}
			}
			continue
		}
		if fi.Size() > maxSize {
			byPath[p] = Entry{Path: p, Skip: SkipTooLarge}
			continue
		}
		content, err := os.ReadFile(full)
		if err != nil {
			return nil, Commit{}, fmt.Errorf("--worktree: %w", err)
		}
		sha, err := r.storeBlob(content)
		if err != nil {
			return nil, Commit{}, err
		}
		skip := pathSkip(p)
		if old, ok := byPath[p]; ok && old.Skip != SkipNone {
			skip = old.Skip // keeps .gitattributes decisions for tracked paths
		}
		byPath[p] = Entry{Path: p, Blob: sha, Skip: skip}
	}
	l := &Listing{}
	for _, e := range byPath {
		l.Entries = append(l.Entries, e)
	}
	sort.Slice(l.Entries, func(i, j int) bool { return l.Entries[i].Path < l.Entries[j].Path })
	return l, head, nil
}

// changedFiles lists paths that differ between HEAD and the working tree,
// including untracked files that are not ignored, with git's own rules
// (all of .gitignore, info/exclude and core.excludesFile).
func (r *Repo) changedFiles(ctx context.Context) ([]string, error) {
	cmd := exec.CommandContext(ctx, "git", "-C", r.WorkTree, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames")
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("--worktree: git status: %w", err)
	}
	var paths []string
	for _, rec := range bytes.Split(out, []byte{0}) {
		if len(rec) > 3 {
			paths = append(paths, string(rec[3:]))
		}
	}
	return paths, nil
}

// storeBlob writes content to the object database as a blob.
func (r *Repo) storeBlob(content []byte) (plumbing.Hash, error) {
	sha := plumbing.ComputeHash(plumbing.BlobObject, content)
	if _, err := r.Git.Storer.EncodedObject(plumbing.BlobObject, sha); err == nil {
		return sha, nil
	}
	obj := r.Git.Storer.NewEncodedObject()
	obj.SetType(plumbing.BlobObject)
	obj.SetSize(int64(len(content)))
	w, err := obj.Writer()
	if err != nil {
		return sha, fmt.Errorf("store blob: %w", err)
	}
	if _, err := w.Write(content); err != nil {
		w.Close()
		return sha, fmt.Errorf("store blob: %w", err)
	}
	if err := w.Close(); err != nil {
		return sha, fmt.Errorf("store blob: %w", err)
	}
	if _, err := r.Git.Storer.SetEncodedObject(obj); err != nil {
		return sha, fmt.Errorf("store blob %s: %w", sha, err)
	}
	return sha, nil
}
