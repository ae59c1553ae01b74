package indexer

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/store"
)

func TestHistorySelectsFirstParentCommits(t *testing.T) {
	r := gittest.New(t)
	var main []string
	for i, d := range []string{"2024-01-01", "2024-02-01", "2024-03-01", "2024-04-01"} {
		main = append(main, r.CommitAt(d+"T00:00:00Z", "m", map[string]string{"a.go": "package a\n// " + strings.Repeat("x", i) + "\n"}))
	}
	r.Git("checkout", "-q", "-b", "feature", main[1])
	f1 := r.CommitAt("2024-02-15T00:00:00Z", "f", map[string]string{"b.go": "package b\n"})
	r.Git("checkout", "-q", "main")
	repo, err := gitindex.OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	hashes := func(cs []gitindex.HistoryCommit) string {
		var s []string
		for _, c := range cs {
			s = append(s, c.Hash.String())
		}
		return strings.Join(s, " ")
	}
	cases := []struct {
		name string
		opts gitindex.HistoryOptions
		want []string
	}{
		{"all of HEAD", gitindex.HistoryOptions{}, main},
		{"max 2", gitindex.HistoryOptions{Max: 2}, main[2:]},
		{"since", gitindex.HistoryOptions{Since: time.Date(2024, 2, 10, 0, 0, 0, 0, time.UTC)}, main[2:]},
		{"all branches", gitindex.HistoryOptions{AllBranches: true}, append([]string{f1}, main...)},
	}
	for _, c := range cases {
		got, err := repo.History(ctx, c.opts)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if c.name == "all branches" {
			// feature is walked first (sorted names), then main adds the rest, oldest first.
			c.want = []string{main[0], main[1], f1, main[2], main[3]}
		}
		if hashes(got) != strings.Join(c.want, " ") {
			t.Errorf("%s: got %s\nwant %s", c.name, hashes(got), strings.Join(c.want, " "))
		}
	}
}

// TestIndexHistoryCostsDistinctBlobs: indexing 30 commits that each change
// one of 10 files processes the 10 initial blobs plus one per commit, and
// derives every listing from its parent's instead of walking the tree.
func TestIndexHistoryCostsDistinctBlobs(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", manyFiles(10))
	for i := 0; i < 30; i++ {
		r.Commit("c", map[string]string{"pkg3/f3.go": "package pkg3\n\n// V" + strings.Repeat("i", i+1) + " changes.\nfunc V() {}\n"})
	}
	repo, err := gitindex.OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	commits, err := repo.History(ctx, gitindex.HistoryOptions{})
	if err != nil || len(commits) != 31 {
		t.Fatalf("history: %d commits, %v", len(commits), err)
	}
	sum, err := NewIndexer(repo, Options{}).IndexHistory(ctx, gitindex.HistoryOptions{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if sum.BlobsNew != 40 || len(sum.Commits) != 31 {
		t.Errorf("history index: %d new blobs over %d commits, want 40 over 31", sum.BlobsNew, len(sum.Commits))
	}
	for _, c := range commits {
		if _, err := repo.CachedListing(c.Tree); err != nil {
			t.Errorf("listing of %s not cached: %v", c.Hash, err)
		}
	}
	// Derived, not walked: a new commit lists from its parent's listing.
	r.Commit("c", map[string]string{"pkg4/f4.go": "package pkg4\n"})
	c, _ := repo.Resolve("HEAD")
	p, _ := repo.Resolve("HEAD~1")
	if _, d, err := repo.ListingFrom(ctx, c.Tree, p.Tree); err != nil || d.Walked || d.Modified != 1 {
		t.Errorf("listing from parent: %+v, %v", d, err)
	}
	sum, err = NewIndexer(repo, Options{}).IndexHistory(ctx, gitindex.HistoryOptions{Max: 5}, 0)
	if err != nil || sum.BlobsNew != 1 {
		t.Errorf("incremental history index: %+v, %v", sum, err)
	}
}

// TestHistoryStopsAtShallowBoundary indexes all the history a shallow clone
// has, without trying to read the commits it lacks.
func TestHistoryStopsAtShallowBoundary(t *testing.T) {
	r := gittest.New(t)
	for i := 0; i < 6; i++ {
		r.Commit("c", map[string]string{"f.go": "package f\n\n// V" + strings.Repeat("i", i+1) + " changes.\nfunc V() {}\n"})
	}
	dst := filepath.Join(t.TempDir(), "shallow")
	r.Git("clone", "-q", "--depth", "3", "file://"+r.Dir, dst)
	repo, err := gitindex.OpenRepo(dst)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := NewIndexer(repo, Options{}).IndexHistory(context.Background(), gitindex.HistoryOptions{}, 0)
	if err != nil {
		t.Fatalf("history of a shallow clone: %v", err)
	}
	if len(sum.Commits) != 3 {
		t.Fatalf("indexed %d commits of a depth-3 clone, want 3", len(sum.Commits))
	}
}

// TestRunEmbedsEachContentOnce: versions of a file indexed in one run
// (a history) share most chunks; each distinct chunk content is embedded
// once, as it is across runs, and the run's summary counts the rest as
// reused.
func TestRunEmbedsEachContentOnce(t *testing.T) {
	r := gittest.New(t)
	var b strings.Builder
	b.WriteString("package a\n")
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&b, "\n// F%d returns %d.\nfunc F%d() int { return %d }\n", i, i, i, i)
	}
	v1 := b.String()
	r.Commit("v1", map[string]string{"a.go": v1})
	r.Commit("v2", map[string]string{"a.go": v1 + "\nfunc G() int { return -1 }\n"})
	r.Commit("v3", map[string]string{"a.go": v1 + "\nfunc G() int { return -2 }\n"})
	emb := &countingEmbedder{Embedder: embed.Default()}
	repo, err := gitindex.OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	// One worker: two workers may embed the same content at once, before
	// either has it.
	sum, err := NewIndexer(repo, Options{Embedder: emb, Workers: 1}).Index(context.Background(), []string{"HEAD~2", "HEAD~1", "HEAD"}, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	distinct := map[string]bool{}
	for _, s := range emb.texts {
		distinct[s] = true
	}
	if sum.BlobsNew != 3 || len(emb.texts) != len(distinct) {
		t.Fatalf("%d blobs, %d texts embedded of which %d distinct: each content once", sum.BlobsNew, len(emb.texts), len(distinct))
	}
	if sum.VectorsReused < 2*40 {
		t.Fatalf("vectors reused %d, want at least %d (the 40 functions of the later versions)", sum.VectorsReused, 2*40)
	}
}

// TestHistoryRunsChangeTables checks that a history index runs
// ChangeTables for each tip when its walk reaches a root commit, once the
// indexing is done, and not for a history cut short.
func TestHistoryRunsChangeTables(t *testing.T) {
	r := gittest.New(t)
	var main []string
	for i := range 3 {
		main = append(main, r.Commit("m", map[string]string{"a.go": fmt.Sprintf("package a\n// %d\n", i)}))
	}
	repo, err := gitindex.OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var tips []string
	opts := Options{ChangeTables: func(_ context.Context, tip plumbing.Hash) error {
		tips = append(tips, tip.String())
		// After the indexing, not beside it: the tip is indexed.
		if st, err := StatusOf(repo, tip.String(), ""); err != nil || st.Pending != 0 {
			t.Errorf("change tables ran before the index was done: %+v, %v", st, err)
		}
		return nil
	}}
	if _, err := NewIndexer(repo, opts).IndexHistory(ctx, gitindex.HistoryOptions{Max: 2}, time.Minute); err != nil {
		t.Fatal(err)
	}
	if len(tips) != 0 {
		t.Errorf("a history of 2 of 3 commits ran the change tables for %q", tips)
	}
	if _, err := NewIndexer(repo, opts).IndexHistory(ctx, gitindex.HistoryOptions{}, time.Minute); err != nil {
		t.Fatal(err)
	}
	if len(tips) != 1 || tips[0] != main[2] {
		t.Errorf("the whole history ran the change tables for %q, want HEAD %s", tips, main[2])
	}
	// Its progress hears of the tables, once the commits are done.
	prog := &historyCancel{}
	opts.Progress = prog
	if _, err := NewIndexer(repo, opts).IndexHistory(ctx, gitindex.HistoryOptions{}, time.Minute); err != nil {
		t.Fatal(err)
	}
	if prog.tables != 1 || len(prog.steps) == 0 || prog.steps[len(prog.steps)-1] != [2]int{3, 3} {
		t.Errorf("progress of a whole history: tables %d times, batches %v; want once, after [3 3]", prog.tables, prog.steps)
	}
	opts.Progress = nil
	opts.ChangeTables = func(context.Context, plumbing.Hash) error { return errors.New("no room") }
	if _, err := NewIndexer(repo, opts).IndexHistory(ctx, gitindex.HistoryOptions{}, time.Minute); err == nil || !strings.Contains(err.Error(), "no room") {
		t.Errorf("a failing change table gave %v", err)
	}
}

// TestHistoryKeepsTipsTexts: a history index keeps the bytes exact search
// reads only for its tips' blobs; older versions stay in git's pack.
func TestHistoryKeepsTipsTexts(t *testing.T) {
	r := gittest.New(t)
	r.Commit("c", map[string]string{"u.go": "package u\n", "f.go": "package f\n\n// first version\n"})
	r.Commit("c", map[string]string{"f.go": "package f\n\n// second version\n"})
	r.Commit("c", map[string]string{"f.go": "package f\n\n// third version\n"})
	repo, err := gitindex.OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewIndexer(repo, Options{}).IndexHistory(context.Background(), gitindex.HistoryOptions{}, 0); err != nil {
		t.Fatal(err)
	}
	snap, err := store.OpenSnapshot(repo.IndexDir, "")
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Close()
	for rev, want := range map[string]bool{"HEAD:f.go": true, "HEAD:u.go": true, "HEAD~1:f.go": false, "HEAD~2:f.go": false} {
		sha := plumbing.NewHash(strings.TrimSpace(r.Git("rev-parse", rev)))
		text, ok, err := snap.Text(sha, nil)
		if err != nil || ok != want {
			t.Errorf("%s: text kept %v (%q), %v; want kept %v", rev, ok, text, err, want)
		}
	}
}
