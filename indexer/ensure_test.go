package indexer

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/store"
)

// TestEnsureIndexesAndLocates: Ensure indexes only what is missing and
// opens a view of one listing per revision and where every listed blob
// is, agreeing with FindBlob on its snapshot; with None it counts the
// missing blobs instead.
func TestEnsureIndexesAndLocates(t *testing.T) {
	r := gittest.New(t)
	r.Commit("one", manyFiles(20))
	indexRevs(t, r.Dir, nil, "HEAD")
	r.Commit("two", map[string]string{"pkg0/new.go": "package pkg0\n\nfunc New() {}\n", "vendor/v.go": "package v\n"})
	repo, err := gitindex.OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	head, prev := mustResolve(t, repo, "HEAD"), mustResolve(t, repo, "HEAD~1")
	ix := NewIndexer(repo, Options{})
	ctx := context.Background()

	check := func(what string, rd *store.View, commits ...gitindex.Commit) {
		t.Helper()
		if len(rd.Listings) != len(commits) || len(rd.Located) != len(commits) {
			t.Fatalf("%s: %d listings, %d located for %d revisions", what, len(rd.Listings), len(rd.Located), len(commits))
		}
		for i, l := range rd.Listings {
			if l.Tree != commits[i].Tree {
				t.Fatalf("%s: listing %d is of tree %s, want %s", what, i, l.Tree, commits[i].Tree)
			}
			// Every entry of the first listing is located; of the next, those
			// the one before does not hold as they are.
			if i == 0 && !slices.Equal(rd.Fresh[0], l.Entries) {
				t.Errorf("%s: the first listing's fresh entries are not all of its entries", what)
			}
			if len(rd.Located[i]) != len(rd.Fresh[i]) {
				t.Fatalf("%s: %d located entries in listing %d for %d fresh", what, len(rd.Located[i]), i, len(rd.Fresh[i]))
			}
			for k, e := range rd.Fresh[i] {
				want, ok := rd.Snap.FindBlob(e.Blob)
				if e.Skip != gitindex.SkipNone || !ok {
					want = store.BlobLoc{Seg: -1}
				}
				if got := rd.Located[i][k]; got != want {
					t.Errorf("%s: %s located at %+v, FindBlob says %+v", what, e.Path, got, want)
				}
			}
		}
	}

	rd, sum, err := ix.Ensure(ctx, store.Want{Commits: []gitindex.Commit{head}}, None, 0)
	if err != nil {
		t.Fatal(err)
	}
	check("no-index", rd, head)
	if rd.Pending != 1 || sum != nil {
		t.Errorf("no-index: pending %d, indexed %+v; want 1 and no run", rd.Pending, sum)
	}
	rd.Close()

	rd, sum, err = ix.Ensure(ctx, store.Want{Commits: []gitindex.Commit{head}}, All, 0)
	if err != nil {
		t.Fatal(err)
	}
	check("index", rd, head)
	if rd.Pending != 0 || sum == nil || sum.BlobsNew != 1 {
		t.Errorf("index: pending %d, run %+v; want 0 and one new blob", rd.Pending, sum)
	}
	rd.Close()

	rd, sum, err = ix.Ensure(ctx, store.Want{Commits: []gitindex.Commit{head, prev}}, All, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	check("two revisions", rd, head, prev)
	if rd.Pending != 0 || sum != nil {
		t.Errorf("two revisions: pending %d, run %+v; want nothing to do", rd.Pending, sum)
	}
	if len(rd.Fresh[1]) != 0 {
		t.Errorf("two revisions: HEAD~1 has %d entries HEAD lacks, want none", len(rd.Fresh[1]))
	}
	older, _, err := ix.Ensure(ctx, store.Want{Commits: []gitindex.Commit{prev, head}}, All, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer older.Close()
	check("older first", older, prev, head)
	if got := older.Fresh[1]; len(got) != 2 || got[0].Path != "pkg0/new.go" || got[1].Path != "vendor/v.go" {
		t.Errorf("older first: HEAD's fresh entries %v, want pkg0/new.go and vendor/v.go", got)
	}
	if len(older.Gone[1]) != 0 || len(rd.Gone[1]) != 2 {
		t.Errorf("entries lost: %v with HEAD~1 first, %v with HEAD first; want none, then the two HEAD adds", older.Gone[1], rd.Gone[1])
	}
	// Read through their deltas, the listings give the same answers.
	lazy, _, err := ix.Ensure(ctx, store.Want{Commits: []gitindex.Commit{prev, head}, ByDelta: true}, All, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer lazy.Close()
	if !slices.Equal(lazy.Fresh[1], older.Fresh[1]) || !slices.Equal(lazy.Gone[1], older.Gone[1]) || !slices.Equal(lazy.Listings[1].Full(), older.Listings[1].Entries) {
		t.Errorf("by delta: fresh %v, gone %v; want %v, %v", lazy.Fresh[1], lazy.Gone[1], older.Fresh[1], older.Gone[1])
	}
	// A listing cached as a delta, read alone by delta, is built before it
	// is located.
	r.Commit("three", map[string]string{"pkg0/new.go": "package pkg0\n\nfunc Newer() {}\n"})
	third := mustResolve(t, repo, "HEAD")
	rd3, _, err := ix.Ensure(ctx, store.Want{Commits: []gitindex.Commit{third}}, All, 0)
	if err != nil {
		t.Fatal(err)
	}
	rd3.Close()
	if _, ok := gitindex.ListingBase(repo.IndexDir, third.Tree); !ok {
		t.Fatal("the third commit's listing is not cached as a delta")
	}
	one, _, err := ix.Ensure(ctx, store.Want{Commits: []gitindex.Commit{third}, ByDelta: true}, All, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer one.Close()
	check("one by delta", one, third)
	if len(one.Fresh[0]) != 22 {
		t.Errorf("one by delta: %d fresh entries, want the 22 of the third commit", len(one.Fresh[0]))
	}
}

// TestEnsureHistory: a request with a history indexes the first-parent
// commits it selects, as `git bcindex log` reads them, then opens the
// view of its tip; with NoIndex it indexes nothing: there is no index to
// open.
func TestEnsureHistory(t *testing.T) {
	r := gittest.New(t)
	r.Commit("one", map[string]string{"a.go": "package a\n\nfunc A() {}\n"})
	r.Commit("two", map[string]string{"b.go": "package a\n\nfunc B() {}\n"})
	r.Commit("three", map[string]string{"c.go": "package a\n\nfunc C() {}\n"})
	repo, err := gitindex.OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	head, mid := mustResolve(t, repo, "HEAD"), mustResolve(t, repo, "HEAD~1")
	ctx := context.Background()
	req := Request{Want: store.Want{Commits: []gitindex.Commit{head}}, Parts: All, NoIndex: true, LockWait: time.Minute,
		History: &gitindex.HistoryOptions{Revs: []string{head.Hash.String()}, Max: 2}}
	if v, _, err := Ensure(ctx, repo, Options{}, req); !errors.Is(err, store.ErrNoIndex) {
		v.Close()
		t.Fatalf("NoIndex on a history never indexed: %v; want ErrNoIndex", err)
	}
	req.NoIndex = false
	v, sum, err := Ensure(ctx, repo, Options{}, req)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	if sum == nil || sum.BlobsNew == 0 {
		t.Errorf("the history's indexing reported %+v; want its new blobs", sum)
	}
	for _, c := range []gitindex.Commit{head, mid} {
		if _, err := repo.CachedListing(c.Tree); err != nil {
			t.Errorf("commit %s of the history is not indexed: %v", c.Hash, err)
		}
	}
	if len(v.Listings) != 1 || v.Listings[0].Tree != head.Tree || v.Pending != 0 {
		t.Errorf("view of %d listings (first of tree %v), %d pending; want the tip's, all indexed", len(v.Listings), v.Listings, v.Pending)
	}
}
