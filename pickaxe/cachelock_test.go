package pickaxe

import (
	"context"
	"os"
	"testing"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/cache"
)

// TestHeldCacheLockStillAnswers: while another writer holds the lock of
// the change table's entry, a query writes neither the segment nor its
// diffs file, and answers as git log does; once the lock is released, the
// next query writes the segment.
func TestHeldCacheLockStillAnswers(t *testing.T) {
	repo, err := gitindex.OpenRepo(syntheticRepo(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { repo.Close() })
	tip, err := repo.Resolve("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	release, ok, err := cache.Dir(repo.IndexDir).TryLock(segmentName(tip.Hash))
	if err != nil || !ok {
		t.Fatalf("lock the segment's entry: ok %v, %v", ok, err)
	}
	ctx := context.Background()
	hist, err := History(ctx, repo, tip.Hash, nil)
	if err != nil {
		t.Fatalf("history with the entry locked: %v", err)
	}
	p := segmentPath(repo.IndexDir, tip.Hash)
	for _, f := range []string{p, diffsPath(p)} {
		if _, err := os.Stat(f); !os.IsNotExist(err) {
			t.Errorf("%s written while its entry was locked (stat: %v)", f, err)
		}
	}
	againstGit(t, repo, hist, "HEAD", sCase("Alpha"))
	againstGit(t, repo, hist, "HEAD", gCase("Beta"))
	if err := release(); err != nil {
		t.Fatal(err)
	}
	again, err := History(ctx, repo, tip.Hash, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !sameCommits(again, hist) {
		t.Fatalf("after the release, history has %d commits, want %d equal ones", len(again), len(hist))
	}
	if _, err := readSegment(repo.IndexDir, tip.Hash); err != nil {
		t.Fatalf("after the release, no segment for HEAD: %v", err)
	}
}
