package pickaxe

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// TestSideTable builds the side table of a history with a merged branch
// and checks that it holds the branch's commits, each with git's changes
// against its parent and the records of their patches, and that the
// pickaxe over them lists the commits git's own pickaxe lists.
func TestSideTable(t *testing.T) {
	r := gittest.New(t)
	r.CommitAt("2024-01-01T00:00:00Z", "one", map[string]string{"a.txt": "alpha\n"})
	r.Git("checkout", "-q", "-b", "side")
	s1 := r.CommitAt("2024-01-02T00:00:00Z", "side one", map[string]string{"b.txt": "beta Needle\n"})
	s2 := r.CommitAt("2024-01-03T00:00:00Z", "side two", map[string]string{"b.txt": "beta\n", "a.txt": "alpha Needle\n"})
	r.Git("checkout", "-q", "main")
	r.CommitAt("2024-01-04T00:00:00Z", "two", map[string]string{"c.txt": "gamma\n"})
	r.Git("merge", "-q", "--no-ff", "-m", "merge", "side")

	repo, tip, _ := openHistory(t, r.Dir, "HEAD")
	if err := BuildHistory(context.Background(), repo, tip.Hash, nil); err != nil {
		t.Fatal(err)
	}
	if err := BuildSide(context.Background(), repo, tip.Hash); err != nil {
		t.Fatal(err)
	}
	side := loadSide(repo.IndexDir)
	var got []string
	for h, c := range side {
		got = append(got, h.String())
		want := strings.Fields(git(t, r.Dir, "diff-tree", "-r", "--no-renames", "--name-only", "--no-commit-id", h.String()))
		var paths []string
		for _, ch := range c.Changes {
			paths = append(paths, ch.Path)
		}
		if !slices.Equal(paths, want) || c.diffs == nil {
			t.Errorf("side commit %s: changes %v (records %v), git %v", c.Subject, paths, c.diffs != nil, want)
		}
	}
	slices.Sort(got)
	want := []string{s1, s2}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("side table holds %v, want the branch's commits %v", got, want)
	}
	var list []Commit
	for _, c := range side {
		list = append(list, *c)
	}
	res, stats, err := Search(context.Background(), repo, list, Options{Pattern: Pattern{Text: "Needle"}})
	if err != nil {
		t.Fatal(err)
	}
	matched := commitsOf(res)
	slices.Sort(matched)
	gitSays := strings.Fields(git(t, r.Dir, "log", "--no-walk=unsorted", "--format=%H", "-S", "Needle", s1, s2))
	slices.Sort(gitSays)
	if !slices.Equal(matched, gitSays) || len(gitSays) != 2 || stats.Records == 0 {
		t.Errorf("pickaxe over the side table: %v (%d records read), git %v", matched, stats.Records, gitSays)
	}
	// A second build lists nothing again.
	again, err := Side(context.Background(), repo, []plumbing.Hash{plumbing.NewHash(s1)}, false)
	if err != nil || again[plumbing.NewHash(s1)] == nil {
		t.Errorf("side table read back: %v, %v", again, err)
	}
}

// TestSideTableShallow builds the tables of a shallow clone whose boundary
// cuts a merged branch: the boundary commits have no parents to git, so
// they are diffed against the empty tree, and the pickaxe over the first-
// parent history and the side table lists what git log lists there.
func TestSideTableShallow(t *testing.T) {
	r := gittest.New(t)
	day := 0
	commit := func(msg string, files map[string]string) string {
		day++
		return r.CommitAt(fmt.Sprintf("2024-01-%02dT00:00:00Z", day), msg, files)
	}
	commit("one", map[string]string{"a.txt": "alpha Needle\n", "b.txt": "beta\n"})
	commit("two", map[string]string{"a.txt": "alpha\n"})
	r.Git("checkout", "-q", "-b", "side")
	commit("side one", map[string]string{"b.txt": "beta Needle\n"})
	commit("side two", map[string]string{"c.txt": "gamma Needle\n"})
	commit("side three", map[string]string{"b.txt": "beta\n", "a.txt": "alpha Needle\n"})
	r.Git("checkout", "-q", "main")
	commit("three", map[string]string{"d.txt": "delta Needle\n"})
	commit("four", map[string]string{"d.txt": "delta\n"})
	r.Git("merge", "-q", "--no-ff", "-m", "merge", "side")
	commit("five", map[string]string{"a.txt": "alpha Needle Needle\n"})

	// Depth 3: five, merge, four and side three; the boundary is four on
	// the first-parent line and side three off it, whose parents are
	// not in the clone.
	dir := filepath.Join(t.TempDir(), "shallow")
	git(t, "", "clone", "--quiet", "--depth", "3", "file://"+r.Dir, dir)
	boundary := strings.Fields(git(t, dir, "rev-parse", "HEAD^^2"))[0]
	repo, tip, hist := openHistory(t, dir, "HEAD")
	if b, err := os.ReadFile(filepath.Join(dir, ".git", "shallow")); err != nil || !strings.Contains(string(b), boundary) {
		t.Fatalf("%s is not at the clone's boundary: %q, %v", boundary, b, err)
	}
	ctx := context.Background()
	if err := BuildHistory(ctx, repo, tip.Hash, nil); err != nil {
		t.Fatal(err)
	}
	if err := BuildSide(ctx, repo, tip.Hash); err != nil {
		t.Fatalf("side table of a shallow clone: %v", err)
	}
	side := loadSide(repo.IndexDir)
	c := side[plumbing.NewHash(boundary)]
	if c == nil || c.diffs == nil {
		t.Fatalf("side table %v lacks the boundary commit %s or its records", side, boundary)
	}
	var paths []string
	for _, ch := range c.Changes {
		paths = append(paths, ch.Path)
		if !ch.From.IsZero() {
			t.Errorf("boundary commit: %s changed from %s, want an addition", ch.Path, ch.From)
		}
	}
	want := strings.Fields(git(t, dir, "diff-tree", "-r", "--root", "--no-renames", "--name-only", "--no-commit-id", boundary))
	if !slices.Equal(paths, want) {
		t.Errorf("boundary commit's changes %v, git %v", paths, want)
	}
	// Plain git log diffs no merge: the merge of the first-parent line is
	// left out of the whole history.
	_, _, hist = openHistory(t, dir, "HEAD")
	merges := strings.Fields(git(t, dir, "rev-list", "--merges", "HEAD"))
	var all []Commit
	for _, c := range hist {
		if !slices.Contains(merges, c.Hash.String()) {
			all = append(all, c)
		}
	}
	for _, c := range side {
		all = append(all, *c)
	}
	for _, tc := range []oracleCase{sCase("Needle"), gCase("Need+le"), sCase("alpha"), gCase("^(beta|gamma)")} {
		for _, set := range []struct {
			name    string
			commits []Commit
			flags   []string
		}{{"first-parent", hist, []string{"--first-parent"}}, {"all", all, nil}} {
			for _, commits := range [][]Commit{set.commits, withoutRecords(set.commits)} {
				res, _, err := Search(ctx, repo, commits, tc.opts)
				if err != nil {
					t.Fatal(err)
				}
				got := commitsOf(res)
				slices.Sort(got)
				args := append(append([]string{"-c", "diff.algorithm=myers", "log", "--no-renames", "--format=%H"}, set.flags...), tc.git...)
				gitSays := strings.Fields(git(t, dir, args...))
				slices.Sort(gitSays)
				if !slices.Equal(got, gitSays) {
					t.Errorf("%q over the %s history: %v, git log %v", tc.git, set.name, got, gitSays)
				}
			}
		}
	}
}
