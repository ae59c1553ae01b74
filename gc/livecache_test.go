package gc

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/store"
)

// TestGCReadsTheLiveBlobsItRecorded: gc records the blobs its refs' trees
// hold under those trees. A gc whose refs name the same trees takes the
// record's word (a blob only the record names stays); a damaged record,
// or refs that name other trees, make gc list the trees again.
func TestGCReadsTheLiveBlobsItRecorded(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", manyFiles(20))
	r.Git("checkout", "-q", "-b", "feature")
	r.Commit("feature", map[string]string{"feat/x.go": "package feat\n\n// Experimental does something new.\nfunc Experimental() {}\n"})
	feature := r.Git("rev-parse", "HEAD")
	r.Git("checkout", "-q", "main")
	emb := embed.Default()
	indexRevs(t, r.Dir, emb, "main")
	indexRevs(t, r.Dir, emb, "feature")
	r.Git("branch", "-q", "-D", "feature")

	repo, err := gitindex.OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	ctx := context.Background()
	gc := func() *Summary {
		t.Helper()
		sum, err := GC(ctx, indexer.NewIndexer(repo, indexer.Options{Embedder: emb}), 0, Options{})
		if err != nil {
			t.Fatal(err)
		}
		return sum
	}
	indexed := func(h plumbing.Hash) bool {
		t.Helper()
		snap, err := store.OpenSnapshot(repo.IndexDir, emb.ID())
		if err != nil {
			t.Fatal(err)
		}
		defer snap.Close()
		_, ok := snap.FindBlob(h)
		return ok
	}
	treeOf := func(rev string) plumbing.Hash {
		c, err := repo.Resolve(rev)
		if err != nil {
			t.Fatal(err)
		}
		return c.Tree
	}
	blobOf := func(rev, path string) plumbing.Hash {
		l, err := repo.Listing(treeOf(rev))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range l.Entries {
			if e.Path == path {
				return e.Blob
			}
		}
		t.Fatalf("%s not in %s", path, rev)
		return plumbing.ZeroHash
	}
	x := blobOf(feature, "feat/x.go")
	key := liveKey([]plumbing.Hash{treeOf("main")})
	l, err := repo.Listing(treeOf("main"))
	if err != nil {
		t.Fatal(err)
	}
	live := map[plumbing.Hash]string{x: "feat/x.go"}
	for _, e := range l.Entries {
		live[e.Blob] = e.Path
	}
	writeLive(repo.IndexDir, key, live)

	if sum := gc(); sum.DeadBlobs != 0 || sum.LiveBlobs != 21 || !indexed(x) {
		t.Fatalf("a gc whose trees the record names dropped %d blobs of %d live (the record's blob indexed: %v)", sum.DeadBlobs, sum.LiveBlobs, indexed(x))
	}

	p := filepath.Join(repo.IndexDir, liveFile)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/2] ^= 1
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if sum := gc(); sum.DeadBlobs != 1 || sum.LiveBlobs != 20 || indexed(x) {
		t.Fatalf("a gc with a damaged record: %d blobs dropped of %d live (the branch's blob indexed: %v)", sum.DeadBlobs, sum.LiveBlobs, indexed(x))
	}
	if got, ok := readLive(repo.IndexDir, key); !ok || len(got) != 20 {
		t.Fatalf("the record after the gc: %d blobs (%v), want main's 20", len(got), ok)
	}

	r.Commit("more", map[string]string{"more/y.go": "package more\n\n// Y is new.\nfunc Y() {}\n"})
	indexRevs(t, r.Dir, emb, "main")
	y := blobOf("main", "more/y.go")
	if sum := gc(); sum.DeadBlobs != 0 || sum.LiveBlobs != 21 || !indexed(y) {
		t.Fatalf("a gc after a new commit: %d blobs dropped of %d live (the new blob indexed: %v)", sum.DeadBlobs, sum.LiveBlobs, indexed(y))
	}
	if got, ok := readLive(repo.IndexDir, liveKey([]plumbing.Hash{treeOf("main")})); !ok || got[y] != "more/y.go" {
		t.Errorf("the record after a new commit: %d blobs (%v), the new one at %q", len(got), ok, got[y])
	}
}
