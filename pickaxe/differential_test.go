package pickaxe

import (
	"context"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bcindex/bcindex/gitindex"
)

// oracleCase is a pickaxe query and the git log flags that ask it.
type oracleCase struct {
	opts Options
	git  []string
}

func sCase(s string, more ...string) oracleCase {
	o := oracleCase{opts: Options{Pattern: Pattern{Text: s}}, git: append([]string{"-S", s}, more...)}
	for _, f := range more {
		switch f {
		case "-i":
			o.opts.IgnoreCase = true
		case "--pickaxe-regex":
			o.opts.Regex = true
		}
	}
	return o
}

func gCase(re string, more ...string) oracleCase {
	o := oracleCase{opts: Options{Pattern: Pattern{Text: re, Regex: true}, Grep: true}, git: append([]string{"-G", re}, more...)}
	for _, f := range more {
		switch f {
		case "-i":
			o.opts.IgnoreCase = true
		case "--text":
			o.opts.Text = true
		}
	}
	return o
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
	// A clone keeps the change table out of the checkout's own .git.
	git(t, "", "clone", "--quiet", "--no-checkout", f[0], dir)
	repo, err := gitindex.OpenRepo(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	// The first commits of the history: enough to hold every case, and a
	// cost that does not grow with the project.
	first := strings.Fields(git(t, dir, "rev-list", "--first-parent", "--reverse", "HEAD"))
	if len(first) < 150 {
		t.Skipf("the history has %d first-parent commits; the cases want 150", len(first))
	}
	tip, err := repo.Resolve(first[min(len(first), 200)-1])
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	hist, err := History(ctx, repo, tip.Hash)
	if err != nil {
		t.Fatal(err)
	}
	if n := git(t, dir, "rev-list", "--first-parent", "--count", tip.Hash.String()); strings.TrimSpace(n) != itoa(len(hist)) {
		t.Fatalf("history has %d commits, git rev-list %s", len(hist), n)
	}
	t.Logf("history: %d commits", len(hist))
	var gitTime, ourTime time.Duration
	found, common := 0, 0
	for _, tc := range oracleCases {
		args := append([]string{"-c", "diff.algorithm=myers", "log", "--first-parent", "--no-renames", "--format=%H", tip.Hash.String()}, tc.git...)
		args = append(args, "--", ".", ":(exclude)*.bin", ":(exclude)bcindex-train")
		t0 := time.Now()
		want := strings.Fields(git(t, dir, args...))
		gitTime += time.Since(t0)
		t0 = time.Now()
		tc.opts.PathMatch = notLarge
		res, _, err := Search(ctx, repo, hist, tc.opts)
		if err != nil {
			t.Fatalf("%q: %v", tc.git, err)
		}
		ourTime += time.Since(t0)
		var got []string
		for _, c := range res {
			got = append(got, c.Commit)
		}
		if len(want) > 0 {
			found++
		}
		if len(want) >= 50 {
			common++
		}
		if !slices.Equal(got, want) {
			t.Errorf("%q: got %d commits, git log %d\n got %.10q\nwant %.10q", tc.git, len(got), len(want), got, want)
		}
	}
	t.Logf("git log %v, the pickaxe %v", gitTime, ourTime)
	// Cases that find nothing compare nothing: most must find commits,
	// some of them many.
	if found < 30 || common < 3 {
		t.Errorf("%d cases find commits, %d find 50 or more: the history is too short to test", found, common)
	}
}
