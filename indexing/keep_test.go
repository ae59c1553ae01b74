package indexing_test

import (
	"context"
	"runtime"
	"testing"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/indexing"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/store"
)

// keeper returns a Keeper over a one-commit repository, the request for
// its HEAD's exact parts, and the repository.
func keeper(t *testing.T) (*indexing.Keeper, indexing.Request, *gitindex.Repo, *gittest.Repo) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("no view is kept on Windows")
	}
	r := gittest.New(t)
	r.Commit("one", map[string]string{"net/retry.go": gittest.RetryGo})
	repo, err := gitindex.OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { repo.Close() })
	head, err := repo.Resolve("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	k := &indexing.Keeper{Ensure: indexer.Ensurer(indexer.Options{})}
	t.Cleanup(k.Close)
	return k, indexing.Request{Want: store.Want{Commits: []gitindex.Commit{head}}, Parts: indexing.Exact}, repo, r
}

func view(t *testing.T, k *indexing.Keeper, repo *gitindex.Repo, r indexing.Request) (*store.View, func()) {
	t.Helper()
	v, _, done, err := k.View(context.Background(), repo, r)
	if err != nil {
		t.Fatal(err)
	}
	return v, done
}

func closed(v *store.View) bool { return v.Snap.Segments == nil }

// TestKeeperLends: the kept view serves one request at a time; one that
// comes meanwhile gets its own, which is kept in its place;
// Close closes a lent view when its request is done, and nothing is kept
// after it.
func TestKeeperLends(t *testing.T) {
	k, req, repo, _ := keeper(t)
	v1, done1 := view(t, k, repo, req)
	if k.Opens() != 1 || closed(v1) {
		t.Fatalf("first request: %d opens, closed %t", k.Opens(), closed(v1))
	}
	v2, done2 := view(t, k, repo, req)
	if v2 == v1 || k.Opens() != 2 {
		t.Fatalf("a request while the view is lent: same view %t, %d opens", v2 == v1, k.Opens())
	}
	done2()
	if closed(v2) || closed(v1) {
		t.Fatal("the newer view, now kept, or the lent one was closed")
	}
	done1()
	if !closed(v1) {
		t.Fatal("the replaced view stayed open once its request was done")
	}
	v3, done3 := view(t, k, repo, req)
	if v3 != v2 || k.Opens() != 2 {
		t.Fatalf("next request: kept view %t, %d opens", v3 == v2, k.Opens())
	}
	k.Close()
	if closed(v3) {
		t.Fatal("Close closed a lent view")
	}
	done3()
	if !closed(v3) {
		t.Fatal("a view lent at Close stayed open once returned")
	}
	v4, done4 := view(t, k, repo, req)
	done4()
	if !closed(v4) || k.Opens() != 3 {
		t.Fatalf("after Close: view kept open %t, %d opens", !closed(v4), k.Opens())
	}
}

// TestKeeperReopens: a new commit, another process's indexing run, and a
// working-tree request each open the index again; an unchanged index and
// revision do not.
func TestKeeperReopens(t *testing.T) {
	k, req, repo, r := keeper(t)
	v0, done := view(t, k, repo, req)
	done()
	_, done = view(t, k, repo, req)
	done()
	if k.Opens() != 1 || closed(v0) {
		t.Fatalf("two requests of an unchanged index: %d opens, want 1", k.Opens())
	}

	r.Commit("two", map[string]string{"cache/warm.go": "package cache\n\n// Warm fills the cache.\nfunc Warm() {}\n"})
	head, err := repo.Resolve("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	req.Want.Commits = []gitindex.Commit{head}
	v, done := view(t, k, repo, req)
	done()
	if k.Opens() != 2 || v.Pending != 0 || len(v.Listings[0].Entries) != 2 || !closed(v0) {
		t.Fatalf("after a commit: %d opens, %d pending, %d files, the old view closed %t", k.Opens(), v.Pending, len(v.Listings[0].Entries), closed(v0))
	}

	// Another indexer (a hook) indexes a branch: the manifest is replaced.
	r.Git("checkout", "-q", "-b", "side")
	r.Commit("side", map[string]string{"side.go": "package side\n\nfunc Side() {}\n"})
	r.Git("checkout", "-q", "main")
	side, err := repo.Resolve("side")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := indexer.NewIndexer(repo, indexer.Options{}).Index(context.Background(), []string{side.Hash.String()}, 0); err != nil {
		t.Fatal(err)
	}
	v2, done := view(t, k, repo, req)
	done()
	if v2 == v || k.Opens() != 3 || !closed(v) {
		t.Fatalf("after another indexing run: kept view %t, %d opens, the old one closed %t", v2 == v, k.Opens(), closed(v))
	}

	wt := indexing.Request{Want: store.Want{Worktree: true}, Parts: indexing.Exact}
	for i := 0; i < 2; i++ {
		v, done := view(t, k, repo, wt)
		done()
		if !closed(v) {
			t.Fatal("a working-tree view was kept")
		}
	}
	if k.Opens() != 5 {
		t.Fatalf("two working-tree requests: %d opens, want 5", k.Opens())
	}
	_, done = view(t, k, repo, req)
	done()
	if k.Opens() != 5 {
		t.Fatalf("back to HEAD: %d opens, want the kept view", k.Opens())
	}
}
