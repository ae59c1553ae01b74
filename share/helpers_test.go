package share

import (
	"context"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

const goFile = gittest.CalcGo

func manyFiles(n int) map[string]string { return gittest.ManyFiles(n) }

func indexRevs(t *testing.T, dir string, emb embed.Embedder, revs ...string) *indexer.Summary {
	t.Helper()
	repo, err := gitindex.OpenRepo(dir)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := indexer.NewIndexer(repo, indexer.Options{Embedder: emb}).Index(context.Background(), revs, 0)
	if err != nil {
		t.Fatalf("index %v: %v", revs, err)
	}
	return sum
}
