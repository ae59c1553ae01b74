package safepath

import (
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/bcindex/bcindex/gitindex"
)

// Errors a front end may recognise with errors.Is to add its own hint (the
// MCP tools name the tool to use instead).
var (
	ErrIsDir  = errors.New("is a directory")
	ErrIsFile = errors.New("is a file")
)

// Tree is one revision's tree listing with lookups by path.
type Tree struct {
	Commit  gitindex.Commit
	Listing *gitindex.Listing
	repo    *gitindex.Repo
}

// Open resolves rev ("" for HEAD) and lists its tree. gitindex.Resolve
// refuses a revision that could pass for an option ("-x").
func Open(repo *gitindex.Repo, rev string) (*Tree, error) {
	c, err := repo.Resolve(rev)
	if err != nil {
		return nil, err
	}
	l, err := repo.Listing(c.Tree)
	if err != nil {
		return nil, fmt.Errorf("list tree of %s: %w", c.Rev, err)
	}
	return &Tree{Commit: c, Listing: l, repo: repo}, nil
}

// Find returns the entry at exactly p.
func (t *Tree) Find(p string) (gitindex.Entry, bool) {
	es := t.Listing.Entries
	i := sort.Search(len(es), func(i int) bool { return es[i].Path >= p })
	if i < len(es) && es[i].Path == p {
		return es[i], true
	}
	return gitindex.Entry{}, false
}

// Under returns the entries below directory dir ("" for the root).
func (t *Tree) Under(dir string) []gitindex.Entry {
	if dir == "" {
		return t.Listing.Entries
	}
	es, prefix := t.Listing.Entries, dir+"/"
	lo := sort.Search(len(es), func(i int) bool { return es[i].Path >= prefix })
	hi := lo + sort.Search(len(es)-lo, func(i int) bool { return !strings.HasPrefix(es[lo+i].Path, prefix) })
	return es[lo:hi]
}

// IsDir reports whether dir is a directory of the tree.
func (t *Tree) IsDir(dir string) bool { return dir == "" || len(t.Under(dir)) > 0 }

// File resolves a path argument to a regular file entry of the tree.
func (t *Tree) File(arg string) (gitindex.Entry, error) {
	if strings.TrimSpace(arg) == "" {
		return gitindex.Entry{}, fmt.Errorf("path is required: a file path relative to the repository root")
	}
	p, err := Clean(arg)
	if err != nil {
		return gitindex.Entry{}, err
	}
	if err := t.checkAncestors(p); err != nil {
		return gitindex.Entry{}, err
	}
	if e, ok := t.Find(p); ok {
		if err := t.linkError(p, e); err != nil {
			return e, err
		}
		return e, nil
	}
	if t.IsDir(p) {
		return gitindex.Entry{}, fmt.Errorf("%q %w at %s", p, ErrIsDir, t.Commit.Rev)
	}
	msg := fmt.Sprintf("no file %q at %s (commit %.12s)", p, t.Commit.Rev, t.Commit.Hash)
	if alt := t.SameBase(path.Base(p), 5); len(alt) > 0 {
		msg += "; files with that name: " + strings.Join(alt, ", ")
	}
	return gitindex.Entry{}, errors.New(msg)
}

// Dir resolves a path argument to a directory of the tree ("" for the root).
func (t *Tree) Dir(arg string) (string, error) {
	p, err := Clean(arg)
	if err != nil {
		return "", err
	}
	if err := t.checkAncestors(p); err != nil {
		return "", err
	}
	if e, ok := t.Find(p); ok {
		if err := t.linkError(p, e); err != nil {
			return "", err
		}
		return "", fmt.Errorf("%q %w at %s", p, ErrIsFile, t.Commit.Rev)
	}
	if !t.IsDir(p) {
		return "", fmt.Errorf("no directory %q at %s (commit %.12s)", p, t.Commit.Rev, t.Commit.Hash)
	}
	return p, nil
}

// SameBase suggests up to n file paths whose base name is base.
func (t *Tree) SameBase(base string, n int) []string {
	return t.paths(n, func(e gitindex.Entry) bool { return path.Base(e.Path) == base })
}

// PathsOf returns up to n file paths holding blob in the tree.
func (t *Tree) PathsOf(blob string, n int) []string {
	return t.paths(n, func(e gitindex.Entry) bool { return e.Blob.String() == blob })
}

// paths returns up to n paths of entries that are files and match keep.
func (t *Tree) paths(n int, keep func(gitindex.Entry) bool) []string {
	var out []string
	for _, e := range t.Listing.Entries {
		if e.Skip != gitindex.SkipSymlink && e.Skip != gitindex.SkipSubmodule && keep(e) {
			out = append(out, e.Path)
			if len(out) == n {
				break
			}
		}
	}
	return out
}

// linkError explains why a symlink or submodule entry is not followed; nil
// for any other entry. p is the path asked for, e the entry on its way.
func (t *Tree) linkError(p string, e gitindex.Entry) error {
	switch e.Skip {
	case gitindex.SkipSymlink:
		target := "?"
		if b, err := t.repo.ReadBlob(e.Blob); err == nil {
			target = string(b)
		}
		// %.200q: a link's target is its blob, which may be anything.
		if e.Path == p {
			return fmt.Errorf("%q is a symbolic link (to %.200q) at %s: symlinks are never followed; read the file it points to by its own path in the repository", p, target, t.Commit.Rev)
		}
		return fmt.Errorf("path %q goes through the symbolic link %q (to %.200q) at %s: symlinks are never followed", p, e.Path, target, t.Commit.Rev)
	case gitindex.SkipSubmodule:
		return fmt.Errorf("%q is a submodule (commit %s) at %s: its files are not in this repository", e.Path, e.Blob, t.Commit.Rev)
	}
	return nil
}

// checkAncestors refuses a path whose parent components are links or files.
func (t *Tree) checkAncestors(p string) error {
	for i := 0; i < len(p); i++ {
		if p[i] != '/' {
			continue
		}
		e, ok := t.Find(p[:i])
		if !ok {
			continue
		}
		if err := t.linkError(p, e); err != nil {
			return err
		}
		return fmt.Errorf("path %q: %q is a file, not a directory, at %s", p, e.Path, t.Commit.Rev)
	}
	return nil
}
