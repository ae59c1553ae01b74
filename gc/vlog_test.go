package gc

import (
	"context"
	"errors"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/internal/testkit/indextest"
	"github.com/bcindex/bcindex/store"
	"github.com/bcindex/bcindex/vector"
)

// TestGCReclaimsVectorLog: vectors of segments that gc merged away leave
// Badger's log, the live segment's locator follows its parts to where the
// rewrite put them, and a reader that had mapped the old place gets
// vector.ErrFault, never wrong scores; a new search finds everything.
func TestGCReclaimsVectorLog(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", manyFiles(60))
	emb := embed.Default()
	for i := 0; i < 4; i++ {
		r.Git("checkout", "-q", "-b", "b"+string(rune('0'+i)))
		r.Commit("branch", map[string]string{"extra/f.go": "package extra\n\n// Extra" + string(rune('A'+i)) + " adds a branch-only function.\nfunc Extra() int { return " + string(rune('0'+i)) + " }\n"})
		indexRevs(t, r.Dir, emb, "HEAD")
		r.Git("checkout", "-q", "main")
		r.Git("branch", "-q", "-D", "b"+string(rune('0'+i)))
	}
	indexRevs(t, r.Dir, emb, "main")
	repo, err := gitindex.OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	before := indextest.LogBytes(t, repo.IndexDir)
	old, err := store.OpenSnapshot(repo.IndexDir, emb.ID())
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	sum, err := GC(context.Background(), indexer.NewIndexer(repo, indexer.Options{Embedder: emb}), 0, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if sum.SegmentsAfter != 1 || sum.Vectors == 0 || sum.LogFiles == 0 {
		t.Fatalf("gc summary %+v: want one segment, vectors deleted and log files rewritten", sum)
	}
	if after := indextest.LogBytes(t, repo.IndexDir); after >= before {
		t.Errorf("value log %d bytes before gc, %d after", before, after)
	}
	for _, seg := range old.Segments {
		q := make([]float32, emb.Dim())
		q[0] = 1
		hits, err := seg.Vec.Search(q, 5, nil)
		if err != nil && !errors.Is(err, vector.ErrFault) {
			t.Fatalf("old mapping: %v", err)
		}
		if err == nil && len(hits) == 0 {
			t.Fatalf("old mapping: no hits and no error")
		}
	}
	snap, err := store.OpenSnapshot(repo.IndexDir, emb.ID())
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Close()
	if len(snap.Damaged) != 0 || len(snap.Segments) != 1 || snap.Segments[0].Vec == nil {
		t.Fatalf("after gc: %d segments, damaged %v", len(snap.Segments), snap.Damaged)
	}
	v := snap.Segments[0].Vec
	if err := v.Verify(); err != nil {
		t.Fatal(err)
	}
	// Every live row's vector is the one a fresh index of main has.
	fresh := gittest.New(t)
	fresh.Commit("init", manyFiles(60))
	indexRevs(t, fresh.Dir, emb, "main")
	frepo, err := gitindex.OpenRepo(fresh.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer frepo.Close()
	got, want := indextest.Vectors(t, repo, emb.ID()), indextest.Vectors(t, frepo, emb.ID())
	if len(got) != len(want) {
		t.Fatalf("%d vectors after gc, a fresh index has %d", len(got), len(want))
	}
	for h, v := range want {
		if got[h] != v {
			t.Fatalf("content %s: vector after gc differs from a fresh index's", h)
		}
	}
}
