package search

import (
	"context"
	"fmt"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/internal/gittest"
)

// TestSearchRunsAgainWhenGCMovesItsVectors: gc rewrites Badger's value log
// while a search holds its segments open. The search's mapped vectors lose
// their file, the scan faults (vector.ErrFault), and the search opens the
// segments again, where the locators now point, and answers as before.
func TestSearchRunsAgainWhenGCMovesItsVectors(t *testing.T) {
	r := gittest.New(t)
	files := map[string]string{"net/retry.go": gittest.RetryGo, "cfg/config.py": configPy}
	for i := 0; i < 30; i++ {
		files[fmt.Sprintf("pkg/f%d.go", i)] = fmt.Sprintf("package pkg\n\n// F%d returns %d.\nfunc F%d() int { return %d }\n", i, i, i, i)
	}
	r.Commit("init", files)
	repo := openRepo(t, r.Dir)
	emb := embed.Default()
	run(t, repo, Options{Query: "retry", Embedder: emb})
	for i := 0; i < 3; i++ {
		r.Git("checkout", "-q", "-b", fmt.Sprintf("b%d", i))
		r.Commit("branch", map[string]string{"pkg/extra.go": fmt.Sprintf("package pkg\n\n// Extra%d is on a branch.\nfunc Extra%d() {}\n", i, i)})
		run(t, repo, Options{Query: "extra", Embedder: emb})
		r.Git("checkout", "-q", "main")
		r.Git("branch", "-q", "-D", fmt.Sprintf("b%d", i))
	}
	want := run(t, repo, Options{Query: "parse the config file", Mode: ModeVector, Embedder: emb, NoIndex: true})

	attempts := 0
	var sum *indexer.GCSummary
	testAfterReady = func() {
		attempts++
		if attempts == 1 {
			var err error
			if sum, err = indexer.NewIndexer(repo, indexer.Options{Embedder: emb}).GC(context.Background(), 0, indexer.GCOptions{}); err != nil {
				t.Errorf("gc: %v", err)
			}
		}
	}
	defer func() { testAfterReady = nil }()
	got := run(t, repo, Options{Query: "parse the config file", Mode: ModeVector, Embedder: emb, NoIndex: true})
	if sum == nil || sum.LogFiles == 0 {
		t.Fatalf("gc rewrote no log file (%+v): nothing moved under the search", sum)
	}
	if attempts != 2 {
		t.Errorf("the search ran %d times, want twice (its first scan faults)", attempts)
	}
	if len(got.Hits) == 0 || len(got.Hits) != len(want.Hits) || got.Hits[0].ChunkID != want.Hits[0].ChunkID {
		t.Fatalf("after gc moved the vectors: %d hits, want %d like before", len(got.Hits), len(want.Hits))
	}
}
