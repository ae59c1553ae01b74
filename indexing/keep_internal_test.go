package indexing

import (
	"runtime"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/store"
)

// TestKeyOf: a request for resolved revisions is kept under its parts and
// the revisions as resolved; one for the working tree or a history is not.
func TestKeyOf(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no view is kept on Windows")
	}
	c := func(rev, hash string) gitindex.Commit {
		return gitindex.Commit{Rev: rev, Hash: plumbing.NewHash(hash), Tree: plumbing.NewHash(hash)}
	}
	head1 := Request{Want: store.Want{Commits: []gitindex.Commit{c("HEAD", "01")}}, Parts: All}
	head2 := Request{Want: store.Want{Commits: []gitindex.Commit{c("HEAD", "02")}}, Parts: All}
	p1, k1, keep1 := keyOf(head1)
	_, k2, keep2 := keyOf(head2)
	if !keep1 || !keep2 || p1 != All {
		t.Fatalf("a request for HEAD: kept %t %t, parts %v", keep1, keep2, p1)
	}
	if k1 == k2 {
		t.Fatal("HEAD at two commits: the same key")
	}
	exact := head1
	exact.Parts = Exact
	if p, k, _ := keyOf(exact); p != Exact || k != k1 {
		t.Fatalf("exact: parts %v, key %q (want the revisions' %q)", p, k, k1)
	}
	none := head1
	none.NoIndex = true
	if p, _, keep := keyOf(none); p != None || !keep {
		t.Fatalf("--no-index: parts %v, kept %t; want None, kept (reopened when the index changes)", p, keep)
	}
	for name, r := range map[string]Request{
		"worktree": {Want: store.Want{Worktree: true}, Parts: All},
		"history":  {Want: head1.Want, Parts: All, History: &gitindex.HistoryOptions{}},
		"nothing":  {Parts: All},
	} {
		if _, _, keep := keyOf(r); keep {
			t.Errorf("%s: kept", name)
		}
	}
}
