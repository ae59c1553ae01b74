package search

import (
	"math/rand"
	"testing"

	"github.com/bits-and-blooms/bitset"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// TestManyRefsKeepsNewestCopy: Alpha is unchanged in three branches
// committed on different days (the oldest branch listed first); searched
// together, its one hit shows the copy of the most recent commit, and every
// run shows the same one.
func TestManyRefsKeepsNewestCopy(t *testing.T) {
	r := gittest.New(t)
	beta := func(n string) string { return "// Beta flag handling.\nfunc Beta() int { return " + n + " }\n" }
	r.CommitAt("2024-01-01T00:00:00Z", "base", map[string]string{"a.go": "package p\n\n" + alphaFn + "\n" + beta("1")})
	for _, b := range []struct{ name, when string }{{"a-new", "2024-03-01T00:00:00Z"}, {"b-old", "2024-02-01T00:00:00Z"}} {
		r.Git("checkout", "-q", "-b", b.name, "main")
		r.CommitAt(b.when, b.name, map[string]string{"a.go": "package p\n\n" + alphaFn + "\n" + beta(b.when[5:7])})
	}
	repo := openRepo(t, r.Dir)
	newest := r.Git("rev-parse", "a-new:a.go")
	sel := gitindex.RefSelection{Patterns: []string{"main", "b-old", "a-new"}}
	for i := 0; i < 5; i++ {
		res := run(t, repo, Options{Query: "Alpha", Mode: ModeSymbol, K: 10, Refs: sel})
		var alpha []Hit
		for _, h := range res.Hits {
			if h.Name == "Alpha" {
				alpha = append(alpha, h)
			}
		}
		if len(alpha) != 1 {
			t.Fatalf("Alpha: %d hits, want one", len(alpha))
		}
		if alpha[0].Blob != newest {
			t.Fatalf("run %d: Alpha shown from blob %s, want a-new's %s (the most recent commit)", i, alpha[0].Blob, newest)
		}
		if got := refNames(alpha[0]); got != "main b-old a-new" {
			t.Errorf("Alpha refs = %q, want every branch in the order asked", got)
		}
	}
}

// TestSetRange checks the word-at-a-time range set against bit by bit.
func TestSetRange(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 500; i++ {
		n := 1 + rng.Intn(300)
		lo := rng.Intn(n)
		hi := lo + rng.Intn(n-lo+1)
		got, want := bitset.New(uint(n)), bitset.New(uint(n))
		setRange(got, lo, hi)
		for b := lo; b < hi; b++ {
			want.Set(uint(b))
		}
		if !got.Equal(want) {
			t.Fatalf("setRange(%d, %d) of %d bits = %v, want %v", lo, hi, n, got, want)
		}
	}
}
