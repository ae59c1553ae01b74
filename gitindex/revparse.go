package gitindex

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/storer"

	"github.com/bcindex/bcindex/internal/lazyre"
)

// Resolve turns any revision expression git accepts into a commit and its
// tree, exactly as `git rev-parse` would: branches, tags, remote branches,
// full or short SHAs, HEAD~3, main^2, reflog entries (HEAD@{1},
// main@{yesterday}, @{-1}), upstreams (@{u}), commit-message searches
// (:/text, main^{/text}). An expression naming something other than a
// commit (HEAD:path, a tree, a blob) is refused with ErrUnknownRevision.
//
// Plain branch and tag names and full SHAs, with ~ and ^ suffixes, are
// resolved in-process (starting git costs more than the rest of a small
// search); every other expression is handed to `git rev-parse`, which
// knows the reflog, the upstream configuration and the rest of git's
// revision syntax that go-git lacks. The commit and its tree are then read
// from git objects.
func (r *Repo) Resolve(rev string) (Commit, error) {
	if rev == "" {
		rev = "HEAD"
	}
	if strings.HasPrefix(rev, "-") {
		return Commit{}, fmt.Errorf("%w %q: a revision cannot start with \"-\"", ErrUnknownRevision, rev)
	}
	h, ok := r.resolvePlain(rev)
	if !ok {
		var err error
		if h, err = r.revParse(context.Background(), rev); err != nil {
			return Commit{}, err
		}
	}
	return r.commitAt(rev, h)
}

// commitAt reads commit h, named rev.
func (r *Repo) commitAt(rev string, h plumbing.Hash) (Commit, error) {
	c, err := r.commitObject(h)
	if err != nil {
		return Commit{}, fmt.Errorf("resolve %q: %w", rev, err)
	}
	return Commit{Rev: rev, Hash: c.Hash, Tree: c.TreeHash, When: c.Committer.When}, nil
}

// resolvePlain resolves a full SHA or a plain ref name (HEAD, a branch, a
// tag, a remote branch, refs/...) that names a commit or a tag of one,
// without starting a process. ok is false for anything else, including
// names that do not resolve: git then decides, and explains.
func (r *Repo) resolvePlain(rev string) (plumbing.Hash, bool) {
	// Ancestry suffixes (HEAD~2, main^2, v1~1^) are walked here too: which
	// parent they name is not open to interpretation.
	if m := ancestry().FindStringSubmatch(rev); m != nil && m[2] != "" {
		h, ok := r.resolvePlain(m[1])
		if !ok {
			return h, false
		}
		for _, step := range suffixStep().FindAllStringSubmatch(m[2], -1) {
			n := 1
			if step[2] != "" {
				var err error
				if n, err = strconv.Atoi(step[2]); err != nil || n > 1<<20 {
					return plumbing.ZeroHash, false
				}
			}
			if h, ok = r.parent(h, step[1] == "~", n); !ok {
				return h, false // git says why
			}
		}
		return h, true
	}
	if len(rev) == 40 && isHex(rev) {
		h := plumbing.NewHash(rev)
		return h, r.isCommit(h)
	}
	if !plainRefName(rev) {
		return plumbing.ZeroHash, false
	}
	// The rules and their order are git's (ref_rev_parse_rules), except
	// that a bare name is taken as is only for HEAD and refs/...: other
	// files in the git dir (FETCH_HEAD, MERGE_HEAD) have formats go-git
	// does not read the way git does.
	rules := []string{"refs/%s", "refs/tags/%s", "refs/heads/%s", "refs/remotes/%s", "refs/remotes/%s/HEAD"}
	if rev == "HEAD" || strings.HasPrefix(rev, "refs/") {
		rules = append([]string{"%s"}, rules...)
	}
	for _, rule := range rules {
		ref, err := storer.ResolveReference(r.Git.Storer, plumbing.ReferenceName(fmt.Sprintf(rule, rev)))
		if err != nil {
			continue
		}
		return r.peel(ref.Hash())
	}
	return plumbing.ZeroHash, false
}

// peel follows annotated tags (possibly nested) from h to a commit.
func (r *Repo) peel(h plumbing.Hash) (plumbing.Hash, bool) {
	for i := 0; i < 8; i++ {
		if r.isCommit(h) {
			return h, true
		}
		tag, err := r.Git.TagObject(h)
		if err != nil {
			break
		}
		h = tag.Target
	}
	return plumbing.ZeroHash, false
}

// ResolveRevision resolves a revision of a selection. One that ExpandRefs
// found by listing the refs is read from the object it listed, without
// looking its name up again.
func (r *Repo) ResolveRevision(rv Revision) (Commit, error) {
	if rv.Target.IsZero() {
		return r.Resolve(rv.Rev)
	}
	h, ok := r.peel(rv.Target)
	if !ok {
		return Commit{}, fmt.Errorf("%w %q: it names no commit", ErrUnknownRevision, rv.Rev)
	}
	return r.commitAt(rv.Rev, h)
}

var (
	ancestry   = lazyre.New(`^([^~^]+)((?:[~^][0-9]*)*)$`)
	suffixStep = lazyre.New(`([~^])([0-9]*)`)
)

// parent returns the n-th first-parent ancestor of h (first), or its n-th
// parent (^n; ^0 is h itself).
func (r *Repo) parent(h plumbing.Hash, first bool, n int) (plumbing.Hash, bool) {
	if !first && n == 0 {
		return h, true
	}
	steps, idx := n, 0
	if !first {
		steps, idx = 1, n-1
	}
	for ; steps > 0; steps-- {
		c, err := r.Git.CommitObject(h)
		if err != nil || idx >= len(c.ParentHashes) {
			return plumbing.ZeroHash, false
		}
		h = c.ParentHashes[idx]
	}
	return h, true
}

func (r *Repo) isCommit(h plumbing.Hash) bool {
	// The repository's own readers first: go-git's first lookup in a pack
	// reads its whole index.
	if _, _, ok, _ := r.object(h, plumbing.CommitObject, -1); ok {
		return true
	}
	obj, err := r.Git.Storer.EncodedObject(plumbing.AnyObject, h)
	return err == nil && obj.Type() == plumbing.CommitObject
}

// plainRefName reports whether rev is a bare ref name: nothing git would
// read as revision syntax (~ ^ : @{ and the like) and nothing a ref name
// may not contain.
func plainRefName(rev string) bool {
	if rev == "" || rev == "@" || strings.Contains(rev, "..") || strings.Contains(rev, "@{") ||
		strings.HasPrefix(rev, "/") || strings.HasSuffix(rev, "/") || strings.HasSuffix(rev, ".lock") || strings.HasSuffix(rev, ".") {
		return false
	}
	for _, c := range rev {
		if c <= ' ' || c == 0x7f || strings.ContainsRune("~^:?*[\\{}", c) {
			return false
		}
	}
	return true
}

func isHex(s string) bool {
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// revParse asks git for the commit an expression names. The expression is
// passed after --end-of-options, so it is never read as an option.
func (r *Repo) revParse(ctx context.Context, rev string) (plumbing.Hash, error) {
	out, msg, err := r.git(ctx, "rev-parse", "--verify", "--end-of-options", rev)
	if err != nil {
		return plumbing.ZeroHash, r.revError(ctx, rev, msg, err)
	}
	obj := strings.TrimSpace(out)
	// Peel the object named (a tag, say) to its commit. The suffix goes
	// on the SHA, not on the expression: in ":/fix^{commit}" or
	// "HEAD:a^{commit}" it would be read as part of the text or path.
	out, _, err = r.git(ctx, "rev-parse", "--verify", "--quiet", "--end-of-options", obj+"^{commit}")
	if err != nil {
		kind, _, terr := r.git(ctx, "cat-file", "-t", obj)
		if terr != nil {
			kind = "object"
		}
		return plumbing.ZeroHash, fmt.Errorf("%w %q: it names a %s, not a commit; give a branch, tag, commit or expression such as HEAD~1", ErrUnknownRevision, rev, strings.TrimSpace(kind))
	}
	return plumbing.NewHash(strings.TrimSpace(out)), nil
}

// revError explains why git did not resolve rev, in git's words when they
// say more than "Needed a single revision".
func (r *Repo) revError(ctx context.Context, rev, msg string, err error) error {
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		return fmt.Errorf("resolve %q: run git: %w", rev, err)
	}
	if rev == "HEAD" || rev == "@" {
		if _, _, err := r.git(ctx, "rev-parse", "--verify", "--quiet", "HEAD"); err != nil {
			return fmt.Errorf("%w %q: %w", ErrUnknownRevision, rev, ErrNoCommits)
		}
	}
	var detail string
	for _, l := range strings.Split(msg, "\n") {
		l = strings.TrimSpace(l)
		l = strings.TrimPrefix(strings.TrimPrefix(l, "fatal: "), "error: ")
		if l != "" && l != "Needed a single revision" {
			detail = l
			break
		}
	}
	if detail == "" {
		detail = "no branch, tag or commit has that name"
	}
	return fmt.Errorf("%w %q: %s", ErrUnknownRevision, rev, detail)
}

// git runs a git command on this repository and returns its standard
// output and standard error.
func (r *Repo) git(ctx context.Context, args ...string) (string, string, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"--git-dir", r.GitDir}, args...)...)
	if r.WorkTree != "" {
		cmd.Dir = r.WorkTree
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	return stdout.String(), stderr.String(), err
}
