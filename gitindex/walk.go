package gitindex

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/gitattributes"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// MaxPathLen bounds the paths that are indexed: longer ones are listed as
// SkipBadPath. It is Linux's PATH_MAX: no checkout could hold a longer
// path, and a hit naming one would fill a terminal.
const MaxPathLen = 4096

// WalkTree lists every file of a tree under its exact path. It reads the
// tree objects' entries itself rather than through go-git's TreeWalker,
// which stops at the first name it deems unsafe to check out (a newline or
// other control character, a `.git`-like component) and ends early, without
// an error, at a subtree it cannot read. bcindex never writes a path to
// disk, so a name git accepts is listed as git lists it: newlines, control
// characters and invalid UTF-8 included.
func (r *Repo) WalkTree(treeHash plumbing.Hash) (*Listing, error) {
	root, err := r.treeEntries(treeHash)
	if err != nil {
		return nil, err
	}
	l := &Listing{Tree: treeHash}
	var attrs []gitattributes.MatchAttribute
	type dir struct {
		prefix  string
		entries []object.TreeEntry
	}
	stack := []dir{{"", root}}
	for len(stack) > 0 {
		d := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		// Subdirectories are pushed in reverse so that files are met in
		// tree order: .gitattributes files apply in that order.
		var subdirs []dir
		for _, e := range d.entries {
			name := d.prefix + e.Name
			switch e.Mode {
			case filemode.Dir:
				t, err := r.treeEntries(e.Hash)
				if err != nil {
					return nil, fmt.Errorf("walk tree %s: %q: %w", treeHash, name, err)
				}
				subdirs = append(subdirs, dir{name + "/", t})
				continue
			case filemode.Symlink:
				l.Entries = append(l.Entries, Entry{Path: name, Blob: e.Hash, Skip: SkipSymlink})
				continue
			case filemode.Submodule:
				l.Entries = append(l.Entries, Entry{Path: name, Blob: e.Hash, Skip: SkipSubmodule})
				continue
			}
			skip := pathSkip(name)
			if skip == SkipNone && path.Base(name) == ".gitattributes" {
				if a, err := r.readAttributes(name, e.Hash); err == nil {
					attrs = append(attrs, a...)
				}
			}
			l.Entries = append(l.Entries, Entry{Path: name, Blob: e.Hash, Skip: skip})
		}
		for i := len(subdirs) - 1; i >= 0; i-- {
			stack = append(stack, subdirs[i])
		}
	}
	if len(attrs) > 0 {
		applyAttributes(l, attrs)
	}
	sort.Slice(l.Entries, func(i, j int) bool { return l.Entries[i].Path < l.Entries[j].Path })
	return l, nil
}

// badPath reports why a path cannot be indexed under its name, or "" when
// it can. git accepts any byte but NUL and '/' in a name, and bcindex takes
// all of them; what it refuses is a path with an empty, "." or ".."
// component (only a hand-made tree object holds one, and no checkout or
// glob could name it) or one longer than MaxPathLen.
func badPath(p string) string {
	if len(p) > MaxPathLen {
		return fmt.Sprintf("longer than %d bytes", MaxPathLen)
	}
	for _, c := range strings.Split(p, "/") {
		switch c {
		case "", ".", "..":
			return fmt.Sprintf("has a %q component", c)
		}
	}
	return ""
}
