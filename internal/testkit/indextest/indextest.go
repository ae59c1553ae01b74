// Package indextest opens test repositories for indexing and counts what
// an embedder is asked to embed, for the tests of the packages that index
// and query.
package indextest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/store"
)

// Open opens the repository at dir, failing the test if it cannot.
func Open(t testing.TB, dir string) *gitindex.Repo {
	t.Helper()
	repo, err := gitindex.OpenRepo(dir)
	if err != nil {
		t.Fatal(err)
	}
	return repo
}

// CountingEmbedder counts the texts it is asked to embed.
type CountingEmbedder struct {
	embed.Embedder
	n atomic.Int64
}

// Embed counts the texts and embeds them with the wrapped embedder.
func (c *CountingEmbedder) Embed(ctx context.Context, texts []string, role embed.Role) ([][]float32, error) {
	c.n.Add(int64(len(texts)))
	return c.Embedder.Embed(ctx, texts, role)
}

// Count returns the texts counted since the last Reset.
func (c *CountingEmbedder) Count() int { return int(c.n.Load()) }

// Reset returns the texts counted and starts again from zero.
func (c *CountingEmbedder) Reset() int { return int(c.n.Swap(0)) }

// Vectors maps every row's content hash to its stored vector of model,
// as text.
func Vectors(t testing.TB, repo *gitindex.Repo, model string) map[string]string {
	snap, err := store.OpenSnapshot(repo.IndexDir, model)
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Close()
	out := map[string]string{}
	for _, seg := range snap.Segments {
		for r := 0; r < seg.Rows(); r++ {
			q, scale := seg.Vec.Row(r)
			out[fmt.Sprintf("%x", seg.Row(r).Hash)] = fmt.Sprint(q, scale)
		}
	}
	return out
}

// LogBytes is the size of the store's value log files.
func LogBytes(t testing.TB, indexDir string) int64 {
	t.Helper()
	names, _ := filepath.Glob(filepath.Join(indexDir, "db", "*.vlog"))
	var n int64
	for _, p := range names {
		if st, err := os.Stat(p); err == nil {
			n += st.Size()
		}
	}
	return n
}
