package pickaxe

import (
	"context"
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
