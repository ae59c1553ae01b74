package gitindex

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/internal/lazyre"
)

// Object is what a revision names for git grep: a commit, a tree or a
// blob, annotated tags peeled.
type Object struct {
	Hash   plumbing.Hash
	Type   plumbing.ObjectType
	Commit Commit        // for a commit
	Tree   plumbing.Hash // a commit's tree, or the tree itself
}

// Prefix returns the directory the repository was opened in, relative to
// the top of the working tree, "" at the top or else ending in '/': git's
// prefix, against which pathspecs and printed paths are relative.
func (r *Repo) Prefix() string {
	if r.WorkTree == "" {
		return ""
	}
	rel, err := filepath.Rel(r.WorkTree, r.workDir)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return ""
	}
	return filepath.ToSlash(rel) + "/"
}

// ResolveObject resolves rev to the object it names, as git's
// get_oid_with_context does for git grep: any commit, tree or blob
// expression (main, v1.0, HEAD~2, main^{tree}, HEAD:path, :path for the
// staged blob). ok is false when rev names nothing; err is a failure to
// read what it names.
func (r *Repo) ResolveObject(rev string) (obj Object, ok bool, err error) {
	if rev == "" || strings.HasPrefix(rev, "-") {
		return obj, false, nil
	}
	if h, ok := r.resolvePlain(rev); ok {
		return r.objectAt(rev, h)
	}
	if base, ok := strings.CutSuffix(rev, "^{tree}"); ok {
		if h, ok := r.resolvePlain(base); ok {
			c, err := r.commitAt(base, h)
			if err != nil {
				return obj, false, err
			}
			return Object{Hash: c.Tree, Type: plumbing.TreeObject, Tree: c.Tree}, true, nil
		}
	}
	if base, path, found := strings.Cut(rev, ":"); found && base != "" && !strings.HasPrefix(path, ".") {
		if h, ok := r.resolvePlain(base); ok {
			c, err := r.commitAt(base, h)
			if err != nil {
				return obj, false, err
			}
			return r.treePath(c.Tree, path)
		}
	}
	if plainRefName(rev) && !mayNameObject(rev) {
		if _, err := os.Stat(filepath.Join(r.GitDir, rev)); err != nil {
			return obj, false, nil
		}
	}
	h, ok := r.revParseAny(rev)
	if !ok {
		return obj, false, nil
	}
	return r.objectAt(rev, h)
}

// describeName matches git describe's output (v1.2-3-gabc1234), whose
// abbreviated SHA git resolves.
var describeName = lazyre.New(`-g[0-9a-f]{4,}$`)

// mayNameObject reports whether a name that no ref has might still name
// an object: an abbreviated SHA or git describe's output.
func mayNameObject(rev string) bool {
	return len(rev) >= 4 && isHex(rev) || describeName().MatchString(rev)
}

// objectType reads the type of h, with the repository's own readers when
// they can (go-git's first lookup in a pack reads its whole index).
func (r *Repo) objectType(h plumbing.Hash) (plumbing.ObjectType, error) {
	for _, t := range []plumbing.ObjectType{plumbing.CommitObject, plumbing.TreeObject, plumbing.BlobObject} {
		if _, _, ok, _ := r.object(h, t, 0); ok {
			return t, nil
		}
	}
	o, err := r.Git.Storer.EncodedObject(plumbing.AnyObject, h)
	if err != nil {
		return plumbing.InvalidObject, err
	}
	return o.Type(), nil
}

// objectAt reads the type of h, peeling annotated tags.
func (r *Repo) objectAt(rev string, h plumbing.Hash) (Object, bool, error) {
	for i := 0; i < 16; i++ {
		typ, err := r.objectType(h)
		if err != nil {
			return Object{}, false, fmt.Errorf("resolve %q: %w", rev, err)
		}
		switch typ {
		case plumbing.CommitObject:
			c, err := r.commitAt(rev, h)
			if err != nil {
				return Object{}, false, err
			}
			return Object{Hash: h, Type: plumbing.CommitObject, Commit: c, Tree: c.Tree}, true, nil
		case plumbing.TreeObject:
			return Object{Hash: h, Type: plumbing.TreeObject, Tree: h}, true, nil
		case plumbing.BlobObject:
			return Object{Hash: h, Type: plumbing.BlobObject}, true, nil
		case plumbing.TagObject:
			tag, err := r.Git.TagObject(h)
			if err != nil {
				return Object{}, false, fmt.Errorf("resolve %q: %w", rev, err)
			}
			h = tag.Target
			continue
		}
		break
	}
	return Object{}, false, fmt.Errorf("resolve %q: unable to grep from object of this type", rev)
}

// treePath resolves path inside tree ("" is the tree itself).
func (r *Repo) treePath(tree plumbing.Hash, path string) (Object, bool, error) {
	path = strings.Trim(path, "/")
	if path == "" {
		return Object{Hash: tree, Type: plumbing.TreeObject, Tree: tree}, true, nil
	}
	t, err := r.Git.TreeObject(tree)
	if err != nil {
		return Object{}, false, fmt.Errorf("read tree %s: %w", tree, err)
	}
	e, err := t.FindEntry(path)
	if err != nil {
		return Object{}, false, nil
	}
	return r.objectAt(path, e.Hash)
}

// revParseAny asks git for the object rev names, in the directory the
// repository was opened in (HEAD:./x is relative to it).
func (r *Repo) revParseAny(rev string) (plumbing.Hash, bool) {
	cmd := exec.CommandContext(context.Background(), "git", "rev-parse", "--verify", "--quiet", "--end-of-options", rev)
	cmd.Dir = r.workDir
	var out bytes.Buffer
	cmd.Stdout = &out
	if cmd.Run() != nil {
		return plumbing.ZeroHash, false
	}
	s := strings.TrimSpace(out.String())
	if len(s) != 40 || !isHex(s) {
		return plumbing.ZeroHash, false
	}
	return plumbing.NewHash(s), true
}
