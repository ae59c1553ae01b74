package cluster

import (
	"context"
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/internal/testkit/weaviatetest"
	"github.com/bcindex/bcindex/store"
)

// BenchmarkSummaries publishes a summary of every chunk text of a
// generated repository (200 files, about 1,200 texts) to a one-node
// loopback cluster over gRPC, publishes them again (nothing to send), and
// compares the query latency with and without summaries on the hits. Run
// it alone: go test ./cluster -run XXX -bench Summaries -benchtime 1x
func BenchmarkSummaries(b *testing.B) {
	weaviatetest.Need(b)
	ctx := context.Background()
	c, src := publishedOverGRPC(b, 200)
	files, err := src.Files(ctx, "HEAD")
	if err != nil {
		b.Fatal(err)
	}
	var sums []Summary
	seen := map[string]bool{}
	for _, f := range files {
		cs, err := src.Chunks(ctx, f.Blob)
		if err != nil {
			b.Fatal(err)
		}
		for _, ch := range cs {
			if ch.Hash != "" && !seen[ch.Hash] {
				seen[ch.Hash] = true
				sums = append(sums, Summary{Hash: ch.Hash, GeneratedSummary: store.GeneratedSummary{
					Summary: "Works out " + ch.Name + " from the numbers it is given, in a loop.", Keywords: []string{"loop", "number"},
					Purpose: "compute", Model: "bench", Prompt: 1, Generated: true}})
			}
		}
	}
	for i := 0; i < b.N; i++ {
		start := time.Now()
		rep, err := PublishSummaries(ctx, c, sums, 0, nil)
		if err != nil {
			b.Fatal(err)
		}
		first := time.Since(start)
		start = time.Now()
		again, err := PublishSummaries(ctx, c, sums, 0, nil)
		if err != nil || again.Sent != 0 {
			b.Fatal(again, err)
		}
		b.Logf("%d summaries: first publish sent %d in %s, second sent %d in %s", len(sums), rep.Sent, first.Round(time.Millisecond),
			again.Sent, time.Since(start).Round(time.Millisecond))
	}
	// The two kinds of query take turns, so that a busy moment of the
	// machine falls on both.
	ms := map[bool][]float64{}
	for i := 0; i < 120; i++ {
		q := fmt.Sprintf("%s the %s number %d", topics[i/2%len(topics)], objects[i/2%len(objects)], i/2)
		no := i%2 == 0
		start := time.Now()
		hits, err := Search(ctx, c, SearchOptions{Query: q, K: 10, Embedder: embed.Default(), NoSummaries: no})
		if err != nil || len(hits) == 0 {
			b.Fatal(hits, err)
		}
		if !no && hits[0].GeneratedSummary == nil {
			b.Fatalf("top hit of %q without its summary", q)
		}
		ms[no] = append(ms[no], float64(time.Since(start).Microseconds())/1000)
	}
	for _, no := range []bool{true, false} {
		sort.Float64s(ms[no])
		b.Logf("queries with summaries %v: p50 %.1f ms, p95 %.1f ms", !no, ms[no][len(ms[no])/2], ms[no][len(ms[no])*95/100])
	}
}
