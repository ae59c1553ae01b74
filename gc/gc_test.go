package gc

import (
	"context"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/internal/testkit/indextest"
	"github.com/bcindex/bcindex/store"
)

// TestGCDropsUnreachable indexes a branch, deletes it, and checks that gc
// drops exactly its blobs while main stays searchable and is not re-embedded.
func TestGCDropsUnreachable(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", manyFiles(30))
	r.Git("checkout", "-q", "-b", "feature")
	r.Commit("feature", map[string]string{"feat/x.go": "package feat\n\n// Experimental does something new.\nfunc Experimental() {}\n"})
	feature := r.Git("rev-parse", "HEAD")
	r.Git("checkout", "-q", "main")
	emb := &indextest.CountingEmbedder{Embedder: embed.Default()}
	indexRevs(t, r.Dir, emb, "main")
	indexRevs(t, r.Dir, emb, "feature")
	r.Git("branch", "-q", "-D", "feature")
	emb.Reset()

	repo, err := gitindex.OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	sum, err := GC(ctx, indexer.NewIndexer(repo, indexer.Options{Embedder: emb}), 0, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if sum.DeadBlobs != 1 || sum.BlobRecords != 1 || sum.LiveBlobs != 30 || sum.SegmentsBefore != 2 || sum.SegmentsAfter != 1 {
		t.Errorf("gc summary %+v", sum)
	}
	if sum.Vectors == 0 {
		t.Errorf("no vectors deleted: %+v", sum)
	}
	if n := emb.Reset(); n != 0 {
		t.Errorf("gc embedded %d texts; vectors of live chunks must be reused", n)
	}
	st, err := indexer.StatusOf(repo, "main", emb.ID())
	if err != nil || !st.Indexed || st.Chunks == 0 || st.Vectors == 0 {
		t.Fatalf("main after gc: %+v %v", st, err)
	}
	snap, err := store.OpenSnapshot(repo.IndexDir, emb.ID())
	if err != nil {
		t.Fatal(err)
	}
	c, _ := repo.Resolve(feature)
	l, _ := repo.Listing(c.Tree)
	for _, e := range l.Entries {
		if _, ok := snap.FindBlob(e.Blob); ok != (e.Path != "feat/x.go") {
			t.Errorf("%s: in index = %v after gc", e.Path, ok)
		}
	}
	snap.Close()

	// A second gc finds nothing; re-indexing the dropped commit processes its blob again.
	if sum, err := GC(ctx, indexer.NewIndexer(repo, indexer.Options{Embedder: emb}), 0, Options{}); err != nil || sum.DeadBlobs != 0 || sum.BlobRecords != 0 || sum.Vectors != 0 {
		t.Errorf("second gc: %+v %v", sum, err)
	}
	if s := indexRevs(t, r.Dir, emb, feature); s.BlobsNew != 1 {
		t.Errorf("re-index after gc: %d new blobs", s.BlobsNew)
	}
}

// TestGCReflogKeepsReflogCommits deletes a branch whose commit is still in
// HEAD's reflog: plain gc drops its blob, gc with Reflog keeps it.
func TestGCReflogKeepsReflogCommits(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", manyFiles(5))
	r.Git("checkout", "-q", "-b", "feature")
	r.Commit("feature", map[string]string{"feat/x.go": "package feat\n\nfunc Experimental() {}\n"})
	r.Git("checkout", "-q", "main")
	emb := embed.Default()
	indexRevs(t, r.Dir, emb, "main", "feature")
	r.Git("branch", "-q", "-D", "feature")
	repo, err := gitindex.OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	sum, err := GC(ctx, indexer.NewIndexer(repo, indexer.Options{Embedder: emb}), 0, Options{Reflog: true})
	if err != nil {
		t.Fatal(err)
	}
	if sum.DeadBlobs != 0 || sum.LiveBlobs != 6 {
		t.Fatalf("gc --reflog: %+v, want the reflog's commit kept", sum)
	}
	if sum, err = GC(ctx, indexer.NewIndexer(repo, indexer.Options{Embedder: emb}), 0, Options{}); err != nil || sum.DeadBlobs != 1 {
		t.Fatalf("gc without reflog: %+v %v, want its blob dropped", sum, err)
	}
}
