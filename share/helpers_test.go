package share

import (
	"context"
	"sync/atomic"
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

// countingEmbedder counts the texts it is asked to embed.
type countingEmbedder struct {
	embed.Embedder
	n atomic.Int64
}

func (c *countingEmbedder) Embed(ctx context.Context, texts []string, role embed.Role) ([][]float32, error) {
	c.n.Add(int64(len(texts)))
	return c.Embedder.Embed(ctx, texts, role)
}

// reset returns the texts counted since the last reset.
func (c *countingEmbedder) reset() int { return int(c.n.Swap(0)) }
