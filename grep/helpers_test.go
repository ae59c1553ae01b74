package grep

import (
	"context"
	"testing"
	"time"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/internal/testkit/indextest"
	"github.com/bcindex/bcindex/store"
)

func openRepo(t *testing.T, dir string) *gitindex.Repo { return indextest.Open(t, dir) }

// ensure opens the revisions of opts after indexer.Ensure with parts.
func ensure(t *testing.T, repo *gitindex.Repo, iopts indexer.Options, opts Options, parts indexer.Parts) *store.View {
	t.Helper()
	want, err := Plan(repo, opts)
	if err != nil {
		t.Fatal(err)
	}
	v, _, err := indexer.NewIndexer(repo, iopts).Ensure(context.Background(), want, parts, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
