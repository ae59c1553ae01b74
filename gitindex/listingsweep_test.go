package gitindex

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

// TestSweepListingsPacks: gc's sweep keeps the listings it is told to and
// the chains of deltas they are read through, and no other: a pack with
// no record kept is deleted, one with some is rewritten without the
// others, a pack a killed run left half written or one with a damaged
// index is deleted; what is kept
// reads back as a walk lists it.
func TestSweepListingsPacks(t *testing.T) {
	defer func(n int) { maxChain = n }(maxChain)
	maxChain = 5
	_, repo, commits := packHistory(t)
	listHistory(t, repo, commits, 10)
	_, names := packRecords(t, repo.IndexDir)
	if len(names) != 4 {
		t.Fatalf("%d packs, want 4", len(names))
	}
	// Commit 13 changes most files (stored in full); 12 ends a chain of
	// deltas.
	keep := map[plumbing.Hash]bool{commits[12].Tree: true, commits[13].Tree: true}
	before, _ := packRecords(t, repo.IndexDir)
	needed := map[plumbing.Hash]bool{}
	for h := range keep {
		for rec := before[h]; ; rec = before[rec.base] {
			needed[rec.tree] = true
			if rec.full {
				break
			}
		}
	}
	stale := filepath.Join(packDir(repo.IndexDir), ".tmp-pack-123")
	broken := filepath.Join(packDir(repo.IndexDir), "pack-0123.pack")
	for _, p := range []string{stale, broken} {
		if err := os.WriteFile(p, []byte(packMagic+"half written, no index"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	n := SweepListings(repo.IndexDir, keep)
	after, left := packRecords(t, repo.IndexDir)
	if n != len(before)-len(needed) || len(after) != len(needed) || len(needed) < 3 {
		t.Errorf("swept %d listings, %d left; want %d swept, %d left", n, len(after), len(before)-len(needed), len(needed))
	}
	for h := range needed {
		if after[h] == nil {
			t.Errorf("listing %s of a kept chain swept", h)
		}
	}
	for _, p := range []string{stale, broken} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s survived the sweep", filepath.Base(p))
		}
	}
	if len(left) != 1 || left[0] == names[0] || left[0] == names[1] {
		t.Errorf("packs after the sweep %v (before %v): want one new", left, names)
	}
	for i, c := range commits {
		l, err := readListing(repo.IndexDir, c.Tree)
		if needed[c.Tree] {
			want, _ := repo.WalkTree(c.Tree)
			if err != nil || !reflect.DeepEqual(l.Entries, want.Entries) {
				t.Errorf("kept commit %d: %v", i, err)
			}
		} else if err == nil || ListingCached(repo.IndexDir, c.Tree) {
			t.Errorf("commit %d: swept listing still cached", i)
		}
	}
	if SweepListings(repo.IndexDir, keep) != 0 {
		t.Error("a second sweep found more to sweep")
	}
	if _, again := packRecords(t, repo.IndexDir); !reflect.DeepEqual(again, left) {
		t.Errorf("a second sweep rewrote the packs: %v, was %v", again, left)
	}
}

// TestListingFileOverPack: a listing a single revision's indexing derives
// from a packed one is written as a listing file, a delta against the
// packed chain's full listing; it reads back, and the sweep that keeps it
// keeps that listing.
func TestListingFileOverPack(t *testing.T) {
	_, repo, commits := packHistory(t)
	// Commit 16 changes a .gitattributes file and the skip reason of many
	// files: it starts a chain.
	listHistory(t, repo, commits[:18], 18)
	last := commits[18]
	l, d, err := repo.ListingFrom(context.Background(), last.Tree, last.Parent)
	if err != nil || d.Walked || d.Cached {
		t.Fatalf("derive the last listing: %v %+v", err, d)
	}
	base, ok := ListingBase(repo.IndexDir, last.Tree)
	recs, _ := packRecords(t, repo.IndexDir)
	if !ok || base != commits[16].Tree || recs[base] == nil || !recs[base].full || recs[last.Parent].full {
		t.Fatalf("listing file a delta %v against %s, want against a full packed listing", ok, base)
	}
	SweepListings(repo.IndexDir, map[plumbing.Hash]bool{last.Tree: true})
	got, err := readListing(repo.IndexDir, last.Tree)
	if err != nil || !reflect.DeepEqual(got.Entries, l.Entries) {
		t.Fatalf("read back after the sweep: %v", err)
	}
	if after, _ := packRecords(t, repo.IndexDir); len(after) != 1 || after[base] == nil {
		t.Errorf("%d packed listings kept, want the base alone", len(after))
	}
}
