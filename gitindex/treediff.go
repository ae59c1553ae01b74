package gitindex

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// fileChange is one file that differs between two trees: From is absent
// (zero Hash) for an added file, To for a deleted one.
type fileChange struct {
	Path     string
	From, To object.TreeEntry
}

func (c fileChange) added() bool   { return c.From.Hash.IsZero() }
func (c fileChange) deleted() bool { return c.To.Hash.IsZero() }

// diffTrees reports the files that differ between trees a and b. Subtrees
// with the same hash on both sides are skipped without being read, so the
// cost follows the number of changed directories. A zero hash stands for
// an empty tree.
func (r *Repo) diffTrees(ctx context.Context, a, b plumbing.Hash) ([]fileChange, error) {
	var out []fileChange
	err := r.diffDirs(ctx, a, b, "", &out)
	return out, err
}

func (r *Repo) diffDirs(ctx context.Context, a, b plumbing.Hash, prefix string, out *[]fileChange) error {
	if a == b {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	ta, err := r.treeEntries(a)
	if err != nil {
		return err
	}
	tb, err := r.treeEntries(b)
	if err != nil {
		return err
	}
	inB := make(map[string]int, len(tb))
	for i, e := range tb {
		inB[e.Name] = i
	}
	for _, ea := range ta {
		i, ok := inB[ea.Name]
		if !ok {
			if err := r.diffEntry(ctx, ea, object.TreeEntry{}, prefix, out); err != nil {
				return err
			}
			continue
		}
		delete(inB, ea.Name)
		if eb := tb[i]; eb.Hash != ea.Hash || eb.Mode != ea.Mode {
			if err := r.diffEntry(ctx, ea, eb, prefix, out); err != nil {
				return err
			}
		}
	}
	for _, eb := range tb {
		if _, ok := inB[eb.Name]; ok {
			if err := r.diffEntry(ctx, object.TreeEntry{}, eb, prefix, out); err != nil {
				return err
			}
		}
	}
	return nil
}

// diffEntry reports the files behind one name that differs: a file on
// either side is a change of that file, a directory on either side is
// diffed against the other side's directory (or an empty one).
func (r *Repo) diffEntry(ctx context.Context, ea, eb object.TreeEntry, prefix string, out *[]fileChange) error {
	name := prefix + ea.Name
	if ea.Hash.IsZero() {
		name = prefix + eb.Name
	}
	var dirA, dirB plumbing.Hash
	var fileA, fileB object.TreeEntry
	if ea.Mode == filemode.Dir {
		dirA = ea.Hash
	} else {
		fileA = ea
	}
	if eb.Mode == filemode.Dir {
		dirB = eb.Hash
	} else {
		fileB = eb
	}
	if !fileA.Hash.IsZero() || !fileB.Hash.IsZero() {
		*out = append(*out, fileChange{Path: name, From: fileA, To: fileB})
	}
	if !dirA.IsZero() || !dirB.IsZero() {
		return r.diffDirs(ctx, dirA, dirB, name+"/", out)
	}
	return nil
}

// treeEntries returns the entries of a tree; the zero hash is empty.
func (r *Repo) treeEntries(h plumbing.Hash) ([]object.TreeEntry, error) {
	if h.IsZero() {
		return nil, nil
	}
	b, _, ok, err := r.object(h, plumbing.TreeObject, -1)
	if err != nil {
		return nil, err
	}
	if ok {
		if es, err := parseTree(b); err == nil {
			return es, nil
		}
	}
	t, err := r.Git.TreeObject(h)
	if err != nil {
		return nil, fmt.Errorf("read tree %s: %w", h, err)
	}
	return t.Entries, nil
}

// parseTree decodes a tree object's entries as go-git's Tree.Decode does:
// for each, the mode in octal, a space, the name, a NUL and the 20-byte
// hash. The mode is made canonical as treeMode does; an empty name is an
// error, as it is to git.
func parseTree(b []byte) ([]object.TreeEntry, error) {
	var es []object.TreeEntry
	for len(b) > 0 {
		sp := bytes.IndexByte(b, ' ')
		if sp < 0 {
			return nil, errBadTree
		}
		mode, err := filemode.New(string(b[:sp]))
		if err != nil {
			return nil, err
		}
		b = b[sp+1:]
		nul := bytes.IndexByte(b, 0)
		if nul <= 0 || len(b) < nul+1+len(plumbing.ZeroHash) {
			return nil, errBadTree
		}
		e := object.TreeEntry{Name: string(b[:nul]), Mode: treeMode(mode)}
		copy(e.Hash[:], b[nul+1:])
		es = append(es, e)
		b = b[nul+1+len(e.Hash):]
	}
	return es, nil
}

// treeMode makes a tree entry's mode canonical as go-git's Tree.Decode
// does, so that an entry has one mode whichever of the two read it:
// 040xxx is a directory; 100xxx an executable file when an execute bit is
// set (100775) and a regular one otherwise (100664, which early versions
// of git wrote); 120xxx a symlink; any other a submodule.
func treeMode(m filemode.FileMode) filemode.FileMode {
	switch m & 0o170000 {
	case 0o040000:
		return filemode.Dir
	case 0o100000:
		if m&0o111 != 0 {
			return filemode.Executable
		}
		return filemode.Regular
	case 0o120000:
		return filemode.Symlink
	}
	return filemode.Submodule
}

var errBadTree = errors.New("malformed tree object")
