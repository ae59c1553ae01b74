package gitindex

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// revParseRepo builds a clone with history, tags, an upstream and a reflog
// that has switched branches, and returns it with a few of its commits.
func revParseRepo(t *testing.T) (*gittest.Repo, map[string]string) {
	t.Helper()
	up := gittest.New(t)
	c := map[string]string{}
	c["first"] = up.CommitAt("2024-01-10T10:00:00Z", "first: add reader", map[string]string{"a.go": "package a\n"})
	c["second"] = up.CommitAt("2024-02-10T10:00:00Z", "second: add writer", map[string]string{"b.go": "package a\n"})
	up.Git("tag", "-a", "v1", "-m", "release one", c["second"])
	up.Git("tag", "light", c["first"])
	up.Git("tag", "treetag", c["first"]+"^{tree}")
	c["third"] = up.CommitAt("2024-03-10T10:00:00Z", "third: retry with backoff", map[string]string{"c.go": "package a\n"})

	dir := filepath.Join(t.TempDir(), "clone")
	up.Git("clone", "-q", up.Dir, dir)
	r := gittest.At(t, dir)
	c["local"] = r.CommitAt("2024-04-10T10:00:00Z", "local: not pushed", map[string]string{"d.go": "package a\n"})
	gitAt(t, dir, "2024-04-20T10:00:00Z", "checkout", "-q", "-b", "feature", c["second"])
	c["feature"] = r.CommitAt("2024-05-10T10:00:00Z", "feature: widget", map[string]string{"w.go": "package a\n"})
	gitAt(t, dir, "2024-05-20T10:00:00Z", "checkout", "-q", "main")
	return r, c
}

// gitAt runs git with its clock at when, which dates the reflog entry.
func gitAt(t *testing.T, dir, when string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_COMMITTER_DATE="+when, "GIT_AUTHOR_DATE="+when)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// gitRevParse is the oracle: the commit git resolves expr to, or "" when
// git refuses it or it names no commit.
func gitRevParse(t *testing.T, dir, expr string) string {
	t.Helper()
	out, err := exec.Command("git", "-C", dir, "rev-parse", "--verify", "--quiet", "--end-of-options", expr).Output()
	if err != nil {
		return ""
	}
	obj := strings.TrimSpace(string(out))
	out, err = exec.Command("git", "-C", dir, "rev-parse", "--verify", "--quiet", obj+"^{commit}").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

func TestResolveMatchesGitRevParse(t *testing.T) {
	r, c := revParseRepo(t)
	repo, err := OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	// want names the commit git must agree on, so that the table checks
	// the repository is what the test thinks, not only parity; "" means
	// git refuses the expression or it names no commit.
	const refused = ""
	cases := []struct{ expr, want string }{
		{"HEAD", c["local"]},
		{"@", c["local"]},
		{"main", c["local"]},
		{"refs/heads/main", c["local"]},
		{"heads/main", c["local"]},
		{"origin/main", c["third"]},
		{"origin", c["third"]}, // refs/remotes/origin/HEAD
		{"@{u}", c["third"]},
		{"main@{upstream}", c["third"]},
		{"@{u}~2", c["first"]},
		{"HEAD@{1}", c["feature"]},
		{"HEAD@{2}", c["second"]},
		{"@{-1}", c["feature"]},
		{"@{-1}~1", c["second"]},
		{"main@{1}", c["third"]},
		{"@{1}", c["third"]},
		{"main@{0}", c["local"]},
		{"feature@{0}", c["feature"]},
		{"HEAD@{2024-02-01}", c["third"]}, // the clone's entry, dated 2024-01-01
		{"HEAD@{2024-04-25}", c["second"]},
		{"HEAD@{2024-05-15}^", c["second"]},
		{"main@{2024-04-20}", c["local"]},
		{"main@{2024-03-20 12:00}", c["third"]},
		{"main@{1 day ago}", c["local"]},
		{"HEAD~2", c["second"]},
		{"HEAD^", c["third"]},
		{"HEAD^1^1", c["second"]},
		{"v1", c["second"]},
		{"v1^{}", c["second"]},
		{"v1^{commit}", c["second"]},
		{"v1~1", c["first"]},
		{"tags/v1", c["second"]},
		{"light", c["first"]},
		{c["first"][:7], c["first"]},
		{c["first"], c["first"]},
		{":/retry with", c["third"]},
		{":/^second", c["second"]},
		{"HEAD^{/first}", c["first"]},
		{"feature^{/widget}", c["feature"]},
		// Refused: not a commit, or not a revision at all.
		{"HEAD:a.go", refused},
		{"HEAD:", refused},
		{":a.go", refused},
		{"v1^{tree}", refused},
		{"treetag", refused},
		{"HEAD@{99}", refused},
		{"@{-9}", refused},
		{"feature@{u}", refused},
		{":/no commit says this", refused},
		{"HEAD^{/no commit says this}", refused},
		{"no-such-branch", refused},
		{"HEAD..main", refused},
		{"HEAD~99", refused},
	}
	for _, tc := range cases {
		oracle := gitRevParse(t, r.Dir, tc.expr)
		if oracle != tc.want {
			t.Errorf("git rev-parse %q = %q, the test expected %s", tc.expr, oracle, tc.want)
		}
		got, err := repo.Resolve(tc.expr)
		switch {
		case oracle == "" && err == nil:
			t.Errorf("Resolve(%q) = %s, git refuses it", tc.expr, got.Hash)
		case oracle == "" && !errors.Is(err, ErrUnknownRevision):
			t.Errorf("Resolve(%q) error = %v, want ErrUnknownRevision", tc.expr, err)
		case oracle == "" && !strings.Contains(err.Error(), tc.expr):
			t.Errorf("Resolve(%q) error does not name the revision: %v", tc.expr, err)
		case oracle != "" && err != nil:
			t.Errorf("Resolve(%q): %v, git says %s", tc.expr, err, oracle)
		case oracle != "" && (got.Hash.String() != oracle || got.Rev != tc.expr):
			t.Errorf("Resolve(%q) = %s (rev %q), git says %s", tc.expr, got.Hash, got.Rev, oracle)
		}
	}
}

func TestResolveExplainsRefusals(t *testing.T) {
	r, _ := revParseRepo(t)
	repo, err := OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	for expr, want := range map[string]string{
		"HEAD:a.go":       "names a blob, not a commit",
		"HEAD:":           "names a tree, not a commit",
		"--all":           `cannot start with "-"`,
		"-h":              `cannot start with "-"`,
		"--output=/tmp/x": `cannot start with "-"`,
		"HEAD@{99}":       "only has",
		"no-such-branch":  "no branch, tag or commit has that name",
	} {
		_, err := repo.Resolve(expr)
		if !errors.Is(err, ErrUnknownRevision) || !strings.Contains(err.Error(), want) {
			t.Errorf("Resolve(%q) = %v, want ErrUnknownRevision saying %q", expr, err, want)
		}
	}
	empty := gittest.New(t)
	repo2, err := OpenRepo(empty.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo2.Close()
	if _, err := repo2.Resolve("HEAD"); err == nil || !strings.Contains(err.Error(), "no commits yet") {
		t.Errorf("HEAD of an empty repository: %v, want \"no commits yet\"", err)
	}
}

// TestResolveInLinkedWorktree checks that HEAD and its reflog are the
// worktree's own, as git reads them there.
func TestResolveInLinkedWorktree(t *testing.T) {
	r, c := revParseRepo(t)
	wt := filepath.Join(t.TempDir(), "wt")
	r.Git("worktree", "add", "-q", wt, "feature")
	w := gittest.At(t, wt)
	w.Git("checkout", "-q", "--detach", c["first"])
	repo, err := OpenRepo(wt)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	for _, expr := range []string{"HEAD", "HEAD@{1}", "@{-1}", "main"} {
		oracle := gitRevParse(t, wt, expr)
		got, err := repo.Resolve(expr)
		if err != nil || got.Hash.String() != oracle || oracle == "" {
			t.Errorf("in worktree, Resolve(%q) = %s, %v; git says %q", expr, got.Hash, err, oracle)
		}
	}
}

// BenchmarkResolve compares the in-process path (a branch name) with the
// one through `git rev-parse` (any other expression).
func BenchmarkResolve(b *testing.B) {
	r := gittest.New(b)
	r.Commit("one", map[string]string{"a.go": "package a\n"})
	r.Commit("two", map[string]string{"b.go": "package a\n"})
	repo, err := OpenRepo(r.Dir)
	if err != nil {
		b.Fatal(err)
	}
	defer repo.Close()
	for _, rev := range []string{"main", "HEAD~1", "HEAD@{1}"} {
		b.Run(rev, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := repo.Resolve(rev); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
