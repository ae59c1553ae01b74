package relevance

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	pathpkg "path"
	"path/filepath"
	"strings"
)

// ErrNoRevision is returned when a repository lacks its pinned revision.
var ErrNoRevision = errors.New("the pinned revision is not in the repository")

// branch is the ref the built tree is committed on.
const branch = "refs/heads/bench"

// git runs git with dir as its git directory and returns its stdout.
func git(ctx context.Context, dir string, env []string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"--git-dir=" + dir}, args...)...)
	cmd.Env = append(append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_TERMINAL_PROMPT=0"), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(errb.String()))
	}
	return strings.TrimSpace(out.String()), nil
}

// sourceGitDir finds a repository's git directory: reposDir/<name> (a git
// directory, a work tree holding .git, or a symlink to either), else a
// bare clone of its URL under work.
func sourceGitDir(ctx context.Context, reposDir, work string, s Spec) (string, error) {
	if reposDir != "" {
		p := filepath.Join(reposDir, s.Name)
		if _, err := os.Stat(p); err == nil {
			if fi, err := os.Stat(filepath.Join(p, ".git")); err == nil && fi.IsDir() {
				return filepath.Join(p, ".git"), nil
			}
			return p, nil
		}
	}
	if s.URL == "" {
		return "", fmt.Errorf("repository %s: not in the repositories directory and no URL to clone", s.Name)
	}
	dst := filepath.Join(work, "clones", s.Name+".git")
	if _, err := os.Stat(filepath.Join(dst, "HEAD")); err == nil {
		return dst, nil
	}
	cmd := exec.CommandContext(ctx, "git", "clone", "--bare", "-q", s.URL, dst)
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("clone %s: %w: %s", s.URL, err, strings.TrimSpace(string(out)))
	}
	return dst, nil
}

// buildTree makes dst a bare repository whose branch holds one commit: the
// tree of Root at the pinned revision of src. It borrows src's objects
// while it commits, then packs what the commit reaches and stops
// borrowing, so the source is only read and the copy stands alone, packed
// as a clone is. A dst built before for the same tree is kept.
func buildTree(ctx context.Context, src, dst string, s Spec) error {
	treeish := s.Revision + "^{tree}"
	if s.Root != "" {
		treeish = s.Revision + ":" + s.Root
	}
	if _, err := git(ctx, src, nil, "cat-file", "-e", s.Revision+"^{commit}"); err != nil {
		return fmt.Errorf("%s %s: %w", s.Name, s.Revision, ErrNoRevision)
	}
	tree, err := git(ctx, src, nil, "rev-parse", "--verify", "-q", treeish)
	if err != nil {
		return fmt.Errorf("%s: no tree %s: %w", s.Name, treeish, err)
	}
	srcTree := tree
	if have, err := git(ctx, dst, nil, "log", "-1", "--format=%s", branch); err == nil && have == subject(s, srcTree) {
		if _, err := os.Stat(filepath.Join(dst, "objects", "info", "alternates")); errors.Is(err, os.ErrNotExist) {
			return nil
		}
	}
	if err := os.RemoveAll(dst); err != nil {
		return err
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	if _, err := git(ctx, dst, nil, "init", "-q", "--bare"); err != nil {
		return err
	}
	srcObjects, err := filepath.Abs(filepath.Join(src, "objects"))
	if err != nil {
		return err
	}
	alt := filepath.Join(dst, "objects", "info", "alternates")
	if err := os.WriteFile(alt, []byte(srcObjects+"\n"), 0o644); err != nil {
		return err
	}
	if tree, err = followLinks(ctx, dst, s, tree); err != nil {
		return fmt.Errorf("%s: follow symbolic links: %w", s.Name, err)
	}
	env := []string{"GIT_AUTHOR_NAME=bench", "GIT_AUTHOR_EMAIL=bench@localhost", "GIT_COMMITTER_NAME=bench",
		"GIT_COMMITTER_EMAIL=bench@localhost", "GIT_AUTHOR_DATE=2000-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2000-01-01T00:00:00Z"}
	c, err := git(ctx, dst, env, "commit-tree", tree, "-m", subject(s, srcTree))
	if err != nil {
		return err
	}
	if _, err := git(ctx, dst, nil, "update-ref", branch, c); err != nil {
		return err
	}
	if _, err := git(ctx, dst, nil, "symbolic-ref", "HEAD", branch); err != nil {
		return err
	}
	// Without -l, repack copies the borrowed objects into the new pack.
	if _, err := git(ctx, dst, nil, "repack", "-a", "-d", "-q"); err != nil {
		return err
	}
	if err := os.Remove(alt); err != nil {
		return err
	}
	if _, err := git(ctx, dst, nil, "rev-list", "--objects", "--all"); err != nil {
		return fmt.Errorf("%s: the packed copy is incomplete: %w", s.Name, err)
	}
	return nil
}

// buildVersion changes whenever buildTree makes a different tree of the
// same source, so that a tree built before by other rules is built again.
const buildVersion = 2

// subject is the built commit's message: what it was built from, and how.
func subject(s Spec, tree string) string {
	return fmt.Sprintf("%s %s:%s tree %s (build %d)", s.Name, s.Revision, s.Root, tree, buildVersion)
}

// followLinks returns tree with its symbolic links to files of the same
// revision replaced by the files, as a walk of a checkout that opens each
// file it lists sees them (some projects keep their sources in one place
// and link them into the indexed one); such a walk does not descend into
// a linked directory, so those stay links, as do links pointing outside
// the revision. The tree is written in dst, which borrows the source's
// objects.
func followLinks(ctx context.Context, dst string, s Spec, tree string) (string, error) {
	ls, err := git(ctx, dst, nil, "ls-tree", "-r", "-z", tree)
	if err != nil {
		return "", err
	}
	var info strings.Builder
	for _, e := range strings.Split(ls, "\x00") {
		meta, p, ok := strings.Cut(e, "\t")
		if !ok || !strings.HasPrefix(meta, "120000 ") {
			continue
		}
		if mode, kind, sha, ok := resolveLink(ctx, dst, s, p, strings.Fields(meta)[2]); ok && kind == "blob" {
			fmt.Fprintf(&info, "%s %s\t%s\n", mode, sha, p)
		}
	}
	if info.Len() == 0 {
		return tree, nil
	}
	env := []string{"GIT_INDEX_FILE=" + filepath.Join(dst, "bench-index")}
	defer os.Remove(filepath.Join(dst, "bench-index"))
	if _, err := git(ctx, dst, env, "read-tree", tree); err != nil {
		return "", err
	}
	cmd := exec.CommandContext(ctx, "git", "--git-dir="+dst, "update-index", "--index-info")
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin = strings.NewReader(info.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("git update-index: %w: %s", err, out)
	}
	return git(ctx, dst, env, "write-tree")
}

// resolveLink follows the link at p (relative to s.Root; its blob holds
// the target) through at most 8 links, to a blob or tree of s.Revision.
func resolveLink(ctx context.Context, dst string, s Spec, p, blob string) (mode, kind, sha string, ok bool) {
	at := pathpkg.Join(s.Root, p)
	for range 8 {
		target, err := git(ctx, dst, nil, "cat-file", "blob", blob)
		if err != nil || target == "" || pathpkg.IsAbs(target) {
			return "", "", "", false
		}
		at = pathpkg.Clean(pathpkg.Join(pathpkg.Dir(at), target))
		if at == ".." || strings.HasPrefix(at, "../") {
			return "", "", "", false
		}
		e, err := git(ctx, dst, nil, "ls-tree", s.Revision, "--", at)
		if err != nil || e == "" {
			return "", "", "", false
		}
		f := strings.Fields(e)
		if f[0] != "120000" {
			return f[0], f[1], f[2], true
		}
		blob = f[2]
	}
	return "", "", "", false
}
