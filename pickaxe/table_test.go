package pickaxe

import (
	"context"
	"os"
	"reflect"
	"testing"
)

// TestTableReadAndHealed checks that a second History reads the change
// table the first wrote, that a tip further on adds a segment above it,
// and that a damaged segment is built again from git.
func TestTableReadAndHealed(t *testing.T) {
	repo, older, first := openHistory(t, syntheticRepo(t), "HEAD~2")
	ctx := context.Background()
	tip, err := repo.Resolve("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	full, err := History(ctx, repo, tip.Hash, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(full) != len(first)+2 || !sameCommits(full[:len(first)], first) {
		t.Fatalf("history of HEAD has %d commits, HEAD~2 %d, or they differ", len(full), len(first))
	}
	s, err := readSegment(repo.IndexDir, tip.Hash)
	if err != nil {
		t.Fatal(err)
	}
	if s.base != older.Hash || len(s.commits) != 2 {
		t.Fatalf("HEAD's segment holds %d commits above %s, want 2 above HEAD~2", len(s.commits), s.base)
	}
	// Damage the older segment: the next read rebuilds it from git.
	p := segmentPath(repo.IndexDir, older.Hash)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/2] ^= 0xff
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	again, err := History(ctx, repo, tip.Hash, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !sameCommits(again, full) {
		t.Fatalf("after the damage, history has %d commits, want %d equal ones", len(again), len(full))
	}
	if _, err := readSegment(repo.IndexDir, tip.Hash); err != nil {
		t.Fatalf("the rebuilt table has no segment for HEAD: %v", err)
	}
}

// sameCommits compares histories by what a search reads of them.
func sameCommits(a, b []Commit) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Hash != b[i].Hash || !a[i].When.Equal(b[i].When) || a[i].Author != b[i].Author ||
			len(a[i].Changes) != len(b[i].Changes) || (len(a[i].Changes) > 0 && !reflect.DeepEqual(a[i].Changes, b[i].Changes)) {
			return false
		}
	}
	return true
}
