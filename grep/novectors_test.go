package grep

import (
	"context"
	"slices"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/exact"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/internal/testkit/indextest"
	"github.com/bcindex/bcindex/store"
)

// TestGrepComputesNoVector: a grep of a revision never indexed indexes
// its exact part only — with an embedder configured, no vector is
// computed and the new segment has none — and answers completely; the
// next search, which reads vectors, computes them then.
func TestGrepComputesNoVector(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", map[string]string{"net/retry.go": gittest.RetryGo, "cfg/config.py": gittest.ConfigPy})
	repo := openRepo(t, r.Dir)
	emb := &indextest.CountingEmbedder{Embedder: embed.Default()}
	iopts := indexer.Options{Embedder: emb}
	m, err := exact.Compile([]string{"RetryWithBackoff"}, exact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, st := grepParts(t, repo, iopts, Options{Matcher: m}, indexer.Exact)
	if !slices.Equal(got, []string{"net/retry.go:5", "net/retry.go:7"}) {
		t.Fatalf("grep of an unindexed revision: %v", got)
	}
	if n := emb.Count(); n != 0 {
		t.Fatalf("grep computed %d vectors", n)
	}
	if st.Unindexed != 0 {
		t.Errorf("grep left %d blobs unindexed: the exact index was not brought up to date", st.Unindexed)
	}
	head, err := repo.Resolve("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	v, err := store.Open(context.Background(), repo, store.Want{Commits: []gitindex.Commit{head}}, emb.ID())
	if err != nil {
		t.Fatal(err)
	}
	noVectors, pending := v.NoVectors, v.Pending
	v.Close()
	if pending != 0 || noVectors == 0 {
		t.Fatalf("after grep: %d blobs pending, %d chunks without vectors; want 0 and some", pending, noVectors)
	}
	// A search reads vectors: Ensure with All computes them now.
	v, sum, err := indexer.NewIndexer(repo, iopts).Ensure(context.Background(), store.Want{Commits: []gitindex.Commit{head}}, indexer.All, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	if sum == nil || sum.Embedded == 0 || emb.Count() == 0 || v.NoVectors != 0 {
		t.Fatalf("the search after grep computed no vectors: %+v, %d without", sum, v.NoVectors)
	}
}
