package search

import (
	"context"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/store"
)

// openDefaultView opens the store's view of what a default search plans
// (HEAD, the built-in model) on repo, closed when the test ends.
func openDefaultView(t *testing.T, repo *gitindex.Repo) *store.View {
	t.Helper()
	p, err := NewPlan(repo, Options{Embedder: embed.Default()})
	if err != nil {
		t.Fatalf("plan: %v", err)
	}
	v, err := store.Open(context.Background(), repo, p.Want, embed.Default().ID())
	if err != nil {
		t.Fatalf("open the store: %v", err)
	}
	t.Cleanup(func() { v.Close() })
	return v
}

// indexTwice commits first and indexes it, then commits second and
// indexes again, so the store holds two segments.
func indexTwice(t *testing.T, first, second map[string]string) *gitindex.Repo {
	t.Helper()
	r := gittest.New(t)
	r.Commit("init", first)
	repo := openRepo(t, r.Dir)
	run(t, repo, Options{Query: "retry"})
	r.Commit("more", second)
	run(t, repo, Options{Query: "retry"})
	return repo
}

// requireSegments fails the test when the view has fewer segments than
// it needs.
func requireSegments(t *testing.T, v *store.View, n int) {
	t.Helper()
	if len(v.Snap.Segments) < n {
		t.Fatalf("%d segments; the test needs %d", len(v.Snap.Segments), n)
	}
}
