package share

import (
	"context"
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
