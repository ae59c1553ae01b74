package mcp

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/bcindex/bcindex/gitindex"
)

// Path safety. Tools never touch the file system: a path names an entry of
// the revision's tree listing and nothing else. Still, an agent may be
// steered into asking for "../../etc/passwd" or "/etc/passwd", or for a file
// through a committed symlink; those are refused with an error that says
// why, rather than answered with "not found", so the agent stops trying.

// cleanPath checks a repository-relative path and returns it in the form the
// tree listing uses ("a/b.go"; "" for the root).
func cleanPath(p string) (string, error) {
	if strings.ContainsRune(p, 0) {
		return "", fmt.Errorf("path %q contains a NUL byte", p)
	}
	if strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\`) || (len(p) >= 2 && p[1] == ':' && isLetter(p[0])) {
		return "", fmt.Errorf("absolute path %q refused: give a path relative to the repository root, like \"src/main.go\"", p)
	}
	for _, c := range strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '\\' }) {
		if c == ".." {
			return "", fmt.Errorf("path %q refused: \"..\" may not appear in a path; paths are relative to the repository root", p)
		}
	}
	// Backslashes separate components only for the ".." check above: git
	// allows them in names, so the path keeps its own spelling.
	var parts []string
	for _, c := range strings.Split(p, "/") {
		if c != "" && c != "." {
			parts = append(parts, c)
		}
	}
	return strings.Join(parts, "/"), nil
}

func isLetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

// tree is one revision's listing with lookups by path.
type tree struct {
	commit gitindex.Commit
	l      *gitindex.Listing
	s      *Server
}

// find returns the entry at exactly p.
func (t tree) find(p string) (gitindex.Entry, bool) {
	es := t.l.Entries
	i := sort.Search(len(es), func(i int) bool { return es[i].Path >= p })
	if i < len(es) && es[i].Path == p {
		return es[i], true
	}
	return gitindex.Entry{}, false
}

// under returns the entries below directory dir ("" for the root).
func (t tree) under(dir string) []gitindex.Entry {
	if dir == "" {
		return t.l.Entries
	}
	es, prefix := t.l.Entries, dir+"/"
	lo := sort.Search(len(es), func(i int) bool { return es[i].Path >= prefix })
	hi := lo + sort.Search(len(es)-lo, func(i int) bool { return !strings.HasPrefix(es[lo+i].Path, prefix) })
	return es[lo:hi]
}

// isDir reports whether dir is a directory of the tree.
func (t tree) isDir(dir string) bool { return dir == "" || len(t.under(dir)) > 0 }

// linkError explains why a symlink or submodule entry is not followed.
func (t tree) linkError(p string, e gitindex.Entry) error {
	switch e.Skip {
	case gitindex.SkipSymlink:
		target := "?"
		if b, err := t.s.repo.ReadBlob(e.Blob); err == nil {
			target = clip(string(b), 200)
		}
		if e.Path == p {
			return fmt.Errorf("%q is a symbolic link (to %q) at %s: symlinks are never followed; read the file it points to by its own path in the repository", p, target, t.commit.Rev)
		}
		return fmt.Errorf("path %q goes through the symbolic link %q (to %q) at %s: symlinks are never followed", p, e.Path, target, t.commit.Rev)
	case gitindex.SkipSubmodule:
		return fmt.Errorf("%q is a submodule (commit %s) at %s: its files are not in this repository", e.Path, e.Blob, t.commit.Rev)
	}
	return nil
}

// checkAncestors refuses a path whose parent components are links or files.
func (t tree) checkAncestors(p string) error {
	for i := 0; i < len(p); i++ {
		if p[i] != '/' {
			continue
		}
		e, ok := t.find(p[:i])
		if !ok {
			continue
		}
		if err := t.linkError(p, e); err != nil {
			return err
		}
		return fmt.Errorf("path %q: %q is a file, not a directory, at %s", p, e.Path, t.commit.Rev)
	}
	return nil
}

// file resolves a path argument to a regular file entry of the tree.
func (t tree) file(arg string) (gitindex.Entry, error) {
	if strings.TrimSpace(arg) == "" {
		return gitindex.Entry{}, fmt.Errorf("path is required: a file path relative to the repository root")
	}
	p, err := cleanPath(arg)
	if err != nil {
		return gitindex.Entry{}, err
	}
	if err := t.checkAncestors(p); err != nil {
		return gitindex.Entry{}, err
	}
	if e, ok := t.find(p); ok {
		if err := t.linkError(p, e); err != nil {
			return e, err
		}
		return e, nil
	}
	if t.isDir(p) {
		return gitindex.Entry{}, fmt.Errorf("%q is a directory at %s: use list_directory", p, t.commit.Rev)
	}
	msg := fmt.Sprintf("no file %q at %s (commit %.12s)", p, t.commit.Rev, t.commit.Hash)
	if alt := t.sameBase(path.Base(p), 5); len(alt) > 0 {
		msg += "; files with that name: " + strings.Join(alt, ", ")
	}
	return gitindex.Entry{}, fmt.Errorf("%s", msg)
}

// dir resolves a path argument to a directory of the tree ("" for the root).
func (t tree) dir(arg string) (string, error) {
	p, err := cleanPath(arg)
	if err != nil {
		return "", err
	}
	if err := t.checkAncestors(p); err != nil {
		return "", err
	}
	if e, ok := t.find(p); ok {
		if err := t.linkError(p, e); err != nil {
			return "", err
		}
		return "", fmt.Errorf("%q is a file at %s: use read_file or file_chunks", p, t.commit.Rev)
	}
	if !t.isDir(p) {
		return "", fmt.Errorf("no directory %q at %s (commit %.12s)", p, t.commit.Rev, t.commit.Hash)
	}
	return p, nil
}

// sameBase suggests up to n paths whose base name is base.
func (t tree) sameBase(base string, n int) []string {
	var out []string
	for _, e := range t.l.Entries {
		if path.Base(e.Path) == base && e.Skip != gitindex.SkipSymlink && e.Skip != gitindex.SkipSubmodule {
			out = append(out, e.Path)
			if len(out) == n {
				break
			}
		}
	}
	return out
}

// pathsOf returns up to n paths holding blob in the tree.
func (t tree) pathsOf(blob string, n int) []string {
	var out []string
	for _, e := range t.l.Entries {
		if e.Blob.String() == blob && e.Skip != gitindex.SkipSymlink && e.Skip != gitindex.SkipSubmodule {
			out = append(out, e.Path)
			if len(out) == n {
				break
			}
		}
	}
	return out
}

// openTree resolves rev and lists its tree.
func (s *Server) openTree(rev string) (tree, error) {
	c, l, err := s.resolve(rev)
	if err != nil {
		return tree{}, err
	}
	return tree{commit: c, l: l, s: s}, nil
}
