package cluster

import (
	"context"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/internal/testkit/weaviatetest"
	"github.com/bcindex/bcindex/store"
)

// Summaries written over gRPC, with and without keywords, are sent once
// and come back on the hits of their texts, marked generated; a text
// without one gets none, and NoSummaries leaves them all out.
func TestSummariesOverGRPC(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c, _ := publishedOverGRPC(t, 3)
	hitOf := func(name string, opts SearchOptions) Hit {
		t.Helper()
		opts.Query, opts.Embedder, opts.K = name, embed.Default(), 1
		hits, err := Search(ctx, c, opts)
		if err != nil || len(hits) == 0 || hits[0].Name != name {
			t.Fatalf("search %s: %+v %v", name, hits, err)
		}
		return hits[0]
	}
	a, b := hitOf("ParseConfig0v0", SearchOptions{}), hitOf("RetryRequest1v0", SearchOptions{})
	sums := []Summary{
		{Hash: a.ContentHash, GeneratedSummary: store.GeneratedSummary{Summary: "Reads the settings of a parser, in Jose\u0301's words.",
			Keywords: []string{"parse", "settings"}, Purpose: "configure parsing", Model: "m", Prompt: 3, Generated: true}},
		{Hash: b.ContentHash, GeneratedSummary: store.GeneratedSummary{Summary: "Tries a request again.", Model: "m", Prompt: 3}},
	}
	rep, err := PublishSummaries(ctx, c, sums, 1, nil)
	if err != nil || rep.Sent != 2 || rep.Present != 0 || rep.Model != "m" || rep.Prompt != 3 {
		t.Fatalf("first publish of summaries: %+v %v", rep, err)
	}
	if rep, err := PublishSummaries(ctx, c, sums, 1, nil); err != nil || rep.Sent != 0 || rep.Present != 2 {
		t.Fatalf("second publish of summaries: %+v %v", rep, err)
	}
	if n := count(t, c, SummaryClass); n != 2 {
		t.Fatalf("%d summary objects, want 2", n)
	}
	g := hitOf("ParseConfig0v0", SearchOptions{}).GeneratedSummary
	if g == nil || g.Summary != sums[0].Summary || len(g.Keywords) != 2 || g.Purpose != "configure parsing" || g.Model != "m" || g.Prompt != 3 || !g.Generated {
		t.Errorf("summary on the hit: %+v", g)
	}
	if g := hitOf("RetryRequest1v0", SearchOptions{}).GeneratedSummary; g == nil || !g.Generated || g.Keywords != nil {
		t.Errorf("summary without keywords, sent unmarked, on the hit: %+v", g)
	}
	if g := hitOf("CacheBuffer2v0", SearchOptions{}).GeneratedSummary; g != nil {
		t.Errorf("a text without a summary shows %+v", g)
	}
	if g := hitOf("ParseConfig0v0", SearchOptions{NoSummaries: true}).GeneratedSummary; g != nil {
		t.Errorf("NoSummaries: %+v", g)
	}
	if _, err := PublishSummaries(ctx, c, []Summary{{Hash: "", GeneratedSummary: sums[0].GeneratedSummary}}, 0, nil); err == nil {
		t.Error("a summary without its content hash was published")
	}
}

// publishedOverGRPC starts a one-node cluster and publishes a generated
// repository of files files to it as acme/app, writing over gRPC.
func publishedOverGRPC(tb testing.TB, files int) (*Client, *Local) {
	tb.Helper()
	srv := weaviatetest.Start(tb, 1)
	c, err := OpenWith(context.Background(), srv.URL(), Options{GRPC: srv.Nodes[0].GRPC})
	if err != nil {
		tb.Fatal(err)
	}
	src := localSource(tb, newRepo(tb, files).Dir)
	if _, err := Publish(context.Background(), c, src, PublishOptions{Repo: "acme/app", Refs: []string{"main"}}); err != nil {
		tb.Fatal(err)
	}
	return c, src
}

func TestSummaryOrder(t *testing.T) {
	s := func(model string, prompt int) *store.GeneratedSummary {
		return &store.GeneratedSummary{Model: model, Prompt: prompt}
	}
	for _, c := range []struct {
		a, b   *store.GeneratedSummary
		prefer string
		want   bool
	}{
		{s("x", 1), s("y", 5), "x", true},  // the preferred model's, whatever its prompt
		{s("y", 5), s("x", 1), "x", false}, //
		{s("y", 5), s("x", 1), "", true},   // else the newer prompt's
		{s("a", 2), s("b", 2), "", true},   // else the first model by name
		{s("b", 2), s("a", 2), "", false},
	} {
		if got := better(c.a, c.b, c.prefer); got != c.want {
			t.Errorf("better(%+v, %+v, %q) = %v", c.a, c.b, c.prefer, got)
		}
	}
}
