package share

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/internal/testkit/indextest"
)

const goFile = gittest.CalcGo

func manyFiles(n int) map[string]string { return gittest.ManyFiles(n) }

func indexRevs(t *testing.T, dir string, emb embed.Embedder, revs ...string) *indexer.Summary {
	t.Helper()
	sum, err := indexer.NewIndexer(indextest.Open(t, dir), indexer.Options{Embedder: emb}).Index(context.Background(), revs, 0)
	if err != nil {
		t.Fatalf("index %v: %v", revs, err)
	}
	return sum
}

// pushedRepo commits files in a new repository and pushes main to a bare
// remote, origin, whose path it returns.
func pushedRepo(t *testing.T, files map[string]string) (*gittest.Repo, string) {
	t.Helper()
	r := gittest.New(t)
	r.Commit("init", files)
	bare := filepath.Join(t.TempDir(), "remote.git")
	gitRun(t, r.Dir, "init", "-q", "--bare", "-b", "main", bare)
	gitRun(t, r.Dir, "remote", "add", "origin", bare)
	gitRun(t, r.Dir, "push", "-q", "origin", "main")
	return r, bare
}
