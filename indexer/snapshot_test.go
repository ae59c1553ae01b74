package indexer

import (
	"testing"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/store"
)

// TestLocate: Locate agrees with FindBlob entry by entry, over two
// segments and with one blob at two paths, marks skipped entries and blobs
// no segment holds with Seg -1, and answers a second call for the same
// listing from memory.
func TestLocate(t *testing.T) {
	r := gittest.New(t)
	files := manyFiles(20)
	files["vendor/v.go"] = "package v\n" // skipped by path
	r.Commit("one", files)
	indexRevs(t, r.Dir, nil, "HEAD")
	more := manyFiles(5)
	extra := map[string]string{"copy/a.go": files["pkg3/f3.go"]}
	for p, c := range more {
		extra["more/"+p] = c + "\n// more\n"
	}
	r.Commit("more", extra)
	indexRevs(t, r.Dir, nil, "HEAD")
	r.Commit("two", map[string]string{"pkg0/new.go": "package pkg0\n\nfunc New() {}\n"}) // not indexed
	repo, err := gitindex.OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	l, err := repo.Listing(treeOf(t, repo, "HEAD"))
	if err != nil {
		t.Fatal(err)
	}
	snap, err := store.OpenSnapshot(repo.IndexDir, "")
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Close()
	locs := snap.Locate(l)
	if len(locs) != len(l.Entries) {
		t.Fatalf("%d locations for %d entries", len(locs), len(l.Entries))
	}
	if len(snap.Segments) < 2 {
		t.Fatalf("%d segments, want the two runs' at least", len(snap.Segments))
	}
	var found, unplaced int
	for i, e := range l.Entries {
		want, ok := snap.FindBlob(e.Blob)
		switch {
		case e.Skip != gitindex.SkipNone || !ok:
			if locs[i].Seg != -1 {
				t.Errorf("%s: located at %+v, want none", e.Path, locs[i])
			}
			unplaced++
		case locs[i] != want:
			t.Errorf("%s: %+v, FindBlob says %+v", e.Path, locs[i], want)
		default:
			found++
		}
	}
	if found != 26 || unplaced != 2 {
		t.Fatalf("found %d, unplaced %d; want 26 and 2 (vendored, not indexed)", found, unplaced)
	}
	if again := snap.Locate(l); &again[0] != &locs[0] {
		t.Error("second Locate recomputed the listing")
	}
}
