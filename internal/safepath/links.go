package safepath

import (
	"fmt"

	"github.com/bcindex/bcindex/gitindex"
)

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
