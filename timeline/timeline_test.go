package timeline

import (
	"context"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/search"
)

func indexHistory(t *testing.T, repo *gitindex.Repo) {
	t.Helper()
	_, err := indexer.NewIndexer(repo, indexer.Options{Embedder: embed.Default()}).IndexHistory(context.Background(), gitindex.HistoryOptions{}, 0)
	if err != nil {
		t.Fatal(err)
	}
}

// TestLogTimeline scripts a function's life: introduced, changed, moved to
// another file, renamed, deleted. log finds it although HEAD lacks it, and
// reports each of those commits.
func TestLogTimeline(t *testing.T) {
	r := gittest.New(t)
	c1 := r.CommitAt("2024-01-01T00:00:00Z", "add retry", map[string]string{"net/retry.go": gittest.RetryGo, "cfg/config.py": gittest.ConfigPy})
	c2 := r.CommitAt("2024-02-01T00:00:00Z", "slower backoff", map[string]string{"net/retry.go": strings.Replace(gittest.RetryGo, "delay *= 2", "delay *= 3", 1)})
	r.CommitAt("2024-03-01T00:00:00Z", "config", map[string]string{"cfg/config.py": gittest.ConfigPy + "\n\ndef more():\n    return 1\n"})
	r.Git("mv", "net/retry.go", "net/backoff.go")
	c4 := r.CommitAt("2024-04-01T00:00:00Z", "move", nil)
	renamed := strings.ReplaceAll(strings.Replace(gittest.RetryGo, "delay *= 2", "delay *= 3", 1), "RetryWithBackoff", "RetryBackoff")
	c5 := r.CommitAt("2024-05-01T00:00:00Z", "rename", map[string]string{"net/backoff.go": renamed})
	r.Git("rm", "-q", "net/backoff.go")
	c6 := r.CommitAt("2024-06-01T00:00:00Z", "delete", nil)
	repo := openRepo(t, r.Dir)
	indexHistory(t, repo)

	res, err := Log(context.Background(), repo, search.Options{Query: "retry with exponential backoff", Embedder: embed.Default()})
	if err != nil {
		t.Fatal(err)
	}
	if res.Commits != 6 || len(res.Timelines) == 0 {
		t.Fatalf("log searched %d commits, %d timelines", res.Commits, len(res.Timelines))
	}
	tl := res.Timelines[0]
	var got []string
	for _, e := range tl.Events {
		got = append(got, e.Type+" "+e.Commit[:7]+" "+e.Path+" "+e.Name)
	}
	want := []string{
		"added " + c1[:7] + " net/retry.go RetryWithBackoff",
		"changed " + c2[:7] + " net/retry.go RetryWithBackoff",
		"renamed " + c4[:7] + " net/backoff.go RetryWithBackoff",
		"renamed " + c5[:7] + " net/backoff.go RetryBackoff",
		"deleted " + c6[:7] + " net/backoff.go RetryBackoff",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("timeline of %s:\n%s\nwant\n%s", tl.Name, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if tl.Present {
		t.Error("deleted chunk reported present at HEAD")
	}
	e := tl.Events[0]
	if e.Author != "Test" || e.Date.Year() != 2024 || e.StartLine != 5 || e.EndLine != 18 {
		t.Errorf("added event = %+v", e)
	}
	if r := tl.Events[2]; r.FromPath != "net/retry.go" || r.FromName != "RetryWithBackoff" {
		t.Errorf("move event = %+v", r)
	}
	for _, other := range res.Timelines[1:] {
		if other.Name == "RetryWithBackoff" || other.Name == "RetryBackoff" {
			t.Errorf("the same chunk has a second timeline: %+v", other)
		}
	}
}

// TestLogTruncatedHistory indexes only the last two of three commits: a
// function from the first commit was already there at the oldest indexed
// commit, so its timeline starts "existed" there, not "added"; indexed from
// the root, the same function is "added" at the root commit.
func TestLogTruncatedHistory(t *testing.T) {
	r := gittest.New(t)
	c1 := r.CommitAt("2024-01-01T00:00:00Z", "add retry", map[string]string{"net/retry.go": gittest.RetryGo})
	c2 := r.CommitAt("2024-02-01T00:00:00Z", "config", map[string]string{"cfg/config.py": gittest.ConfigPy})
	r.CommitAt("2024-03-01T00:00:00Z", "slower backoff", map[string]string{"net/retry.go": strings.Replace(gittest.RetryGo, "delay *= 2", "delay *= 3", 1)})
	repo := openRepo(t, r.Dir)
	first := func() Event {
		t.Helper()
		res, err := Log(context.Background(), repo, search.Options{Query: "RetryWithBackoff", Embedder: embed.Default()})
		if err != nil {
			t.Fatal(err)
		}
		for _, tl := range res.Timelines {
			if tl.Name == "RetryWithBackoff" {
				return tl.Events[0]
			}
		}
		t.Fatalf("no timeline of RetryWithBackoff in %+v", res.Timelines)
		return Event{}
	}
	_, err := indexer.NewIndexer(repo, indexer.Options{Embedder: embed.Default()}).IndexHistory(context.Background(), gitindex.HistoryOptions{Max: 2}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if e := first(); e.Type != EventExisted || e.Commit != c2 {
		t.Errorf("with the root commit not indexed, first event = %s %.10s, want %s %.10s", e.Type, e.Commit, EventExisted, c2)
	}
	indexHistory(t, repo)
	if e := first(); e.Type != EventAdded || e.Commit != c1 {
		t.Errorf("indexed from the root, first event = %s %.10s, want %s %.10s", e.Type, e.Commit, EventAdded, c1)
	}
}
