package pickaxe

import (
	"context"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/gitindex"
)

// oracleCase is a pickaxe query and the git log flags that ask it.
type oracleCase struct {
	opts Options
	git  []string
}

// sCase asks -S s, gCase -G re, each with more of git log's flags.
func sCase(s string, more ...string) oracleCase  { return newCase("-S", s, more) }
func gCase(re string, more ...string) oracleCase { return newCase("-G", re, more) }

func newCase(kind, pattern string, more []string) oracleCase {
	o := oracleCase{opts: Options{Pattern: Pattern{Text: pattern, Regex: kind == "-G"}, Grep: kind == "-G"},
		git: append([]string{kind, pattern}, more...)}
	for _, f := range more {
		switch f {
		case "-i":
			o.opts.IgnoreCase = true
		case "--pickaxe-regex":
			o.opts.Regex = true
		case "--text":
			o.opts.Text = true
		}
	}
	return o
}

// againstGit runs tc with the pickaxe over hist and with git log at tip
// (limited by pathspec, if any), reports a difference, and returns git's
// commits.
func againstGit(t *testing.T, repo *gitindex.Repo, hist []Commit, tip string, tc oracleCase, pathspec ...string) []string {
	t.Helper()
	args := append([]string{"-c", "diff.algorithm=myers", "log", "--first-parent", "--no-renames", "--format=%H", tip}, tc.git...)
	want := strings.Fields(git(t, repo.WorkTree, append(args, pathspec...)...))
	res, _, err := Search(context.Background(), repo, hist, tc.opts)
	if err != nil {
		t.Fatalf("%q: %v", tc.git, err)
	}
	if got := commitsOf(res); !slices.Equal(got, want) {
		t.Errorf("%q: got %d commits, git log %d\n got %.10q\nwant %.10q", tc.git, len(got), len(want), got, want)
	}
	return want
}

// openHistory opens the repository in dir and lists the history of rev.
func openHistory(t *testing.T, dir, rev string) (*gitindex.Repo, gitindex.Commit, []Commit) {
	t.Helper()
	repo, err := gitindex.OpenRepo(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { repo.Close() })
	tip, err := repo.Resolve(rev)
	if err != nil {
		t.Fatal(err)
	}
	hist, err := History(context.Background(), repo, tip.Hash, nil)
	if err != nil {
		t.Fatal(err)
	}
	return repo, tip, hist
}

// oracleCases are strings and regexes rare and common in this project's
// own history, in syntax that RE2 and POSIX ERE read alike.
var oracleCases = []oracleCase{
	sCase("func "), sCase("package "), sCase("return nil, err"), sCase("TODO"), sCase("todo", "-i"),
	sCase("castagnoli"), sCase("doublestar"), sCase("ListingFrom"), sCase("copySynced"),
	sCase("WriteCacheFile"), sCase("ErrNoIndex"), sCase("archsimd"), sCase("weaviate", "-i"),
	sCase("Weaviate"), sCase("tree-sitter"), sCase(`fmt.Errorf("`), sCase("\t\t\t\t\t"),
	sCase("errgroup"), sCase("}\n\nfunc"), sCase("hint:"), sCase("A"), sCase("zzqx-never-there"),
	sCase("Listing[A-Z]", "--pickaxe-regex"), sCase("^import", "--pickaxe-regex"),
	sCase("[a-z]+_test", "--pickaxe-regex"), sCase("BADGER", "-i", "--pickaxe-regex"),
	sCase("x*", "--pickaxe-regex"),
	gCase("func [A-Z][a-zA-Z]*Listing"), gCase("^package "), gCase("TODO|FIXME"),
	gCase("[0-9]{4}-[0-9]{2}-[0-9]{2}"), gCase(`errors\.(Is|As)`), gCase(`\bctx\b`),
	gCase(`^\s*//`), gCase("go-git/v[0-9]"), gCase("badger", "-i"), gCase(`\)$`),
	gCase("copySynced"), gCase(`[^a-z]Embed`), gCase("sync\\.Once"), gCase("e", "--text"),
	gCase(`^$`), gCase(`\<Close\>`),
}

// notLarge leaves out the model files and a binary once committed by
// mistake, tens of megabytes that both sides would read for every case.
func notLarge(p string) bool { return !strings.HasSuffix(p, ".bin") && p != "bcindex-train" }

// TestDifferentialOwnHistory compares the pickaxe with git log on this
// repository's own first-parent history.
func TestDifferentialOwnHistory(t *testing.T) {
	out, err := exec.Command("git", "rev-parse", "--show-toplevel", "--is-shallow-repository").Output()
	if err != nil {
		t.Skip("not inside a git checkout")
	}
	f := strings.Fields(string(out))
	if len(f) < 2 || f[1] == "true" {
		t.Skip("a shallow clone has no history to compare")
	}
	dir := filepath.Join(t.TempDir(), "repo")
	// A clone (with a work tree, for git's pathspecs) keeps the change
	// table out of the checkout's own .git.
	git(t, "", "clone", "--quiet", "--no-checkout", f[0], dir)
	// The first commits of the history: enough to hold every case, and a
	// cost that does not grow with the project.
	first := strings.Fields(git(t, dir, "rev-list", "--first-parent", "--reverse", "HEAD"))
	if len(first) < 150 {
		t.Skipf("the history has %d first-parent commits; the cases want 150", len(first))
	}
	repo, tip, hist := openHistory(t, dir, first[min(len(first), 200)-1])
	if n := git(t, dir, "rev-list", "--first-parent", "--count", tip.Hash.String()); strings.TrimSpace(n) != strconv.Itoa(len(hist)) {
		t.Fatalf("history has %d commits, git rev-list %s", len(hist), n)
	}
	found, common := 0, 0
	for _, tc := range oracleCases {
		tc.opts.PathMatch = notLarge
		want := againstGit(t, repo, hist, tip.Hash.String(), tc, "--", ".", ":(exclude)*.bin", ":(exclude)bcindex-train")
		if len(want) > 0 {
			found++
		}
		if len(want) >= 50 {
			common++
		}
	}
	// Cases that find nothing compare nothing: most must find commits,
	// some of them many.
	if found < 30 || common < 3 {
		t.Errorf("%d cases find commits, %d find 50 or more: the history is too short to test", found, common)
	}
}
