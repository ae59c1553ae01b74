package gc

import (
	"context"
	"fmt"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/store"
)

// TestGCLeavesTheStoreNoLarger: on a repository with many tags and a
// deleted branch's blobs in the index, gc ends with a store no larger than
// it found (it reads the tags' trees to know what is live, but caches no
// listing of them) and a value log that holds the live vectors and little
// more.
func TestGCLeavesTheStoreNoLarger(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", manyFiles(300))
	for i := 0; i < 24; i++ {
		r.Commit("release", map[string]string{fmt.Sprintf("pkg%d/f%d.go", i%10, i): fmt.Sprintf("package pkg%d\n\n// F%d does thing %d, released.\nfunc F%d() int { return %d }\n", i%10, i, i, i, -i)})
		r.Git("tag", fmt.Sprintf("v0.%d", i))
	}
	r.Git("checkout", "-q", "-b", "feature")
	feature := map[string]string{}
	for i := 0; i < 40; i++ {
		feature[fmt.Sprintf("feat/g%d.go", i)] = fmt.Sprintf("package feat\n\n// G%d is an experiment that never shipped.\nfunc G%d(xs []int) (n int) {\n\tfor _, x := range xs {\n\t\tn += x * %d\n\t}\n\treturn n\n}\n", i, i, i)
	}
	r.Commit("feature", feature)
	r.Git("checkout", "-q", "main")
	emb := embed.Default()
	indexRevs(t, r.Dir, emb, "feature")
	indexRevs(t, r.Dir, emb, "main")
	r.Git("branch", "-q", "-D", "feature")

	repo, err := gitindex.OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	dir := repo.IndexDir
	before, partsBefore := indexer.DirSize(dir), store.StoreParts(dir)
	sum, err := GC(context.Background(), indexer.NewIndexer(repo, indexer.Options{Embedder: emb}), 0, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Refs != 24 || sum.DeadBlobs != 40 || sum.SegmentsAfter != 1 {
		t.Fatalf("gc summary %+v: want 24 ref trees, the feature's 40 blobs dropped, one segment", sum)
	}
	after, parts := indexer.DirSize(dir), store.StoreParts(dir)
	if after > before || sum.BytesAfter > sum.BytesBefore {
		t.Errorf("store %d bytes before gc, %d after (summary %d → %d); parts before %+v, after %+v",
			before, after, sum.BytesBefore, sum.BytesAfter, partsBefore, parts)
	}
	if parts.Trees > partsBefore.Trees {
		t.Errorf("tree listings %d bytes before gc, %d after", partsBefore.Trees, parts.Trees)
	}
	for i := 0; i < 23; i++ {
		c, err := repo.Resolve(fmt.Sprintf("v0.%d", i))
		if err != nil {
			t.Fatal(err)
		}
		if gitindex.ListingCached(dir, c.Tree) {
			t.Errorf("gc cached the listing of tag v0.%d's tree", i)
		}
	}
	// The log holds the live segment's vectors and, beyond them, Badger's
	// entry headers and file headers only: no copy of a part the rewrite
	// left behind.
	m, err := store.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, vectors := store.VectorBytes(dir, m.Segments)
	if logged := store.LogBytes(dir); vectors == 0 || logged-vectors > vectors/20+4096 {
		t.Errorf("value log %d bytes after gc for %d bytes of live vectors", logged, vectors)
	}
}
