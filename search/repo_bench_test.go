package search

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/store"
)

// repoBenchQueries are natural-language queries of the kind an agent asks
// (BCINDEX_BENCH_QUERIES, separated by ";", replaces them).
var repoBenchQueries = []string{
	"retry with exponential backoff",
	"parse the http request header",
	"read a configuration file from disk",
	"compare two strings ignoring case",
}

// BenchmarkSearchRepo measures warm queries, in process, on a repository
// indexed already: BCINDEX_BENCH_REPO names it (skipped without). Each
// mode runs two ways: "open", as `search.SearchIndexed` (the store opened
// and closed per query, as a new command does, minus process start), and
// "view", on one view opened once (as a long-lived server such as the MCP
// server or a benchmark loop keeps it). Made for corpora too big to build
// in a benchmark, such as a million chunks; -cpuprofile shows where a
// query's time goes.
func BenchmarkSearchRepo(b *testing.B) {
	dir := os.Getenv("BCINDEX_BENCH_REPO")
	if dir == "" {
		b.Skip("BCINDEX_BENCH_REPO names an indexed repository to query")
	}
	repo, err := gitindex.OpenRepo(dir)
	if err != nil {
		b.Fatal(err)
	}
	queries := repoBenchQueries
	if q := os.Getenv("BCINDEX_BENCH_QUERIES"); q != "" {
		queries = strings.Split(q, ";")
	}
	emb := embed.Default()
	ctx := context.Background()
	b.Run("hybrid/checked", func(b *testing.B) {
		defer reportCPU(b, cpuTime())
		for i := 0; i < b.N; i++ {
			if _, err := searchRepo(ctx, repo, Options{Query: queries[i%len(queries)], Embedder: emb}); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, mode := range []string{ModeHybrid, ModeVector, ModeText, ModeSymbol} {
		b.Run(mode+"/open", func(b *testing.B) {
			defer reportCPU(b, cpuTime())
			for i := 0; i < b.N; i++ {
				if _, err := SearchIndexed(ctx, repo, Options{Query: queries[i%len(queries)], Mode: mode, Embedder: emb}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(mode+"/view", func(b *testing.B) {
			p, err := NewPlan(repo, Options{Mode: mode, Embedder: emb})
			if err != nil {
				b.Fatal(err)
			}
			v, err := store.Open(ctx, repo, p.Want, emb.ID())
			if err != nil {
				b.Fatal(err)
			}
			defer v.Close()
			s := NewSearcher(v, p)
			b.ResetTimer()
			defer reportCPU(b, cpuTime())
			for i := 0; i < b.N; i++ {
				if _, err := s.Search(ctx, nil, Options{Query: queries[i%len(queries)], Mode: mode, Embedder: emb}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
