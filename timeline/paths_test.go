package timeline

import (
	"context"
	"slices"
	"sort"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// TestHistoryKeepsChanges: the history kept as changes answers what the
// listings of its commits say, for every path and commit: files added,
// changed, changed back, deleted and added again, and files whose skip
// reason changes with .gitattributes; and each pair of adjacent commits'
// changed entries are gitindex.ChangedEntries of their listings.
func TestHistoryKeepsChanges(t *testing.T) {
	r := gittest.New(t)
	r.Commit("one", map[string]string{"a.go": "package a\n", "b.go": "package b\n", "gen/g.go": "package g\n"})
	r.Commit("two", map[string]string{"a.go": "package a // 2\n", "c.go": "package c\n"})
	r.Commit("attributes", map[string]string{".gitattributes": "gen/** linguist-generated\n"})
	r.Remove("b.go")
	r.Commit("delete b", map[string]string{"a.go": "package a\n"})
	r.Commit("b again", map[string]string{"b.go": "package b\n", ".gitattributes": "\n"})
	r.Remove("c.go", "gen/g.go")
	r.Commit("delete c", nil)
	repo := openRepo(t, r.Dir)
	indexHistory(t, repo)
	all, err := repo.History(context.Background(), gitindex.HistoryOptions{Revs: []string{"HEAD"}})
	if err != nil {
		t.Fatal(err)
	}
	h := &history{}
	var ls []*gitindex.Listing
	paths := map[string]bool{}
	for _, c := range all {
		l, err := repo.CachedListing(c.Tree)
		if err != nil {
			t.Fatalf("listing of %s: %v", c.Hash, err)
		}
		var prev *gitindex.Listing
		if len(ls) > 0 {
			prev = ls[len(ls)-1]
		}
		h.addListing(prev, l)
		ls = append(ls, l)
		for _, e := range l.Entries {
			paths[e.Path] = true
		}
	}
	if len(ls) != 6 {
		t.Fatalf("%d listings; the test needs 6", len(ls))
	}
	skipped := 0
	for i, l := range ls {
		for p := range paths {
			var want plumbing.Hash
			k := sort.Search(len(l.Entries), func(k int) bool { return l.Entries[k].Path >= p })
			if k < len(l.Entries) && l.Entries[k].Path == p {
				if l.Entries[k].Skip == gitindex.SkipNone {
					want = l.Entries[k].Blob
				} else {
					skipped++
				}
			}
			got, ok := h.blobAt(i, p)
			if ok != (want != plumbing.ZeroHash) || got != want {
				t.Errorf("commit %d, %s: blob %s (%v), the listing says %s", i, p, got, ok, want)
			}
		}
		if i == 0 {
			continue
		}
		if got, want := h.changedEntries(i, i-1), gitindex.ChangedEntries(ls[i-1], l); !slices.Equal(got, want) {
			t.Errorf("commit %d's entries changed from %d: %v, want %v", i, i-1, got, want)
		}
		if got, want := h.changedEntries(i-1, i), gitindex.ChangedEntries(l, ls[i-1]); !slices.Equal(got, want) {
			t.Errorf("commit %d's entries changed from %d: %v, want %v", i-1, i, got, want)
		}
	}
	t.Logf("%d paths, %d skipped entries", len(paths), skipped)
}
