package search

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/query"
	"github.com/bcindex/bcindex/store"
)

// countParses sets o to parse its query through a counter.
func countParses(o *Options) *int {
	n := 0
	o.parse = func(s string) (query.Query, error) {
		n++
		return query.Parse(s)
	}
	return &n
}

// TestQueryParsedOnce: a search parses its text once, whatever runs:
// every arm, fusion and the exact tier (a code query), several revisions,
// a ranking through View (as the timeline ranks), and a search run again because gc moved its vectors. A caller
// that parsed the query already passes it, and the search parses nothing.
func TestQueryParsedOnce(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", map[string]string{"net/retry.go": gittest.RetryGo, "cfg/config.py": gittest.ConfigPy})
	r.Git("branch", "old")
	r.Commit("more", map[string]string{"net/more.go": "package net\n\n// Check fails when err != nil.\nfunc Check(err error) { if err != nil { panic(err) } }\n"})
	repo := openRepo(t, r.Dir)
	ctx := context.Background()
	for _, c := range []struct {
		name string
		opts Options
		view bool
	}{
		{name: "hybrid, code", opts: Options{Query: "err != nil", Embedder: embed.Default()}},
		{name: "symbol", opts: Options{Query: "RetryWithBackoff", Mode: ModeSymbol}},
		{name: "text", opts: Options{Query: "retry with backoff", Mode: ModeText}},
		{name: "revisions", opts: Options{Query: "retry with backoff", Embedder: embed.Default(), Refs: gitindex.RefSelection{Patterns: []string{"main", "old"}}}},
		{name: "view", opts: Options{Query: "retry with backoff", Embedder: embed.Default()}, view: true},
	} {
		n := countParses(&c.opts)
		var err error
		if c.view {
			err = rankThrough(ctx, repo, c.opts)
		} else {
			var res *Result
			if res, err = searchRepo(ctx, repo, c.opts); err == nil && len(res.Hits) == 0 {
				t.Errorf("%s: no hits", c.name)
			}
		}
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if *n != 1 {
			t.Errorf("%s: the query was parsed %d times; want once", c.name, *n)
		}
	}

	q, err := query.Parse("err != nil")
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Parsed: &q, Embedder: embed.Default()}
	n := countParses(&o)
	got, err := searchRepo(ctx, repo, o)
	if err != nil {
		t.Fatal(err)
	}
	if *n != 0 {
		t.Errorf("a parsed query was parsed %d times again", *n)
	}
	want := run(t, repo, Options{Query: "err != nil"})
	if len(got.Hits) == 0 || len(got.Hits) != len(want.Hits) || got.Hits[0].ChunkID != want.Hits[0].ChunkID {
		t.Errorf("the parsed query found %d hits, the text %d, or another first", len(got.Hits), len(want.Hits))
	}

	if _, err := searchRepo(ctx, repo, Options{Query: "retry", Parsed: &q}); err == nil || !strings.Contains(err.Error(), "two queries") {
		t.Errorf("two different queries: %v; want an error naming them", err)
	}
	if _, err := searchRepo(ctx, repo, Options{Query: "  "}); !errors.Is(err, ErrEmptyQuery) {
		t.Errorf("a blank query: %v; want ErrEmptyQuery", err)
	}
}

// TestQueryParsedOnceWhenRunAgain: a search that gc made run again (its
// vectors moved) does not parse its query a second time.
func TestQueryParsedOnceWhenRunAgain(t *testing.T) {
	emb := embed.Default()
	repo := repoWithLogToRewrite(t, emb)
	o := Options{Query: "parse the config file", Mode: ModeVector, Embedder: emb}
	p, err := NewPlan(repo, o)
	if err != nil {
		t.Fatal(err)
	}
	v, first, sum := gcUnderView(t, repo, emb, p.Want)
	defer v.Close()
	n := countParses(&o)
	if _, err := NewSearcher(v, p).Search(context.Background(), nil, o); err != nil {
		t.Fatal(err)
	}
	checkRanAgain(t, v, first, sum)
	if *n != 1 {
		t.Errorf("the query was parsed %d times over two runs; want once", *n)
	}
}

// rankThrough ranks HEAD through a Ranking, as the timeline ranks a history.
func rankThrough(ctx context.Context, repo *gitindex.Repo, opts Options) error {
	if err := ParseQuery(&opts); err != nil {
		return err
	}
	if err := CheckOptions(&opts); err != nil {
		return err
	}
	c, err := repo.Resolve("HEAD")
	if err != nil {
		return err
	}
	l, err := repo.CachedListing(c.Tree)
	if err != nil {
		return err
	}
	snap, err := store.OpenSnapshot(repo.IndexDir, opts.Embedder.ID())
	if err != nil {
		return err
	}
	defer snap.Close()
	ranked, err := NewRanking(repo, c, snap, []*gitindex.Listing{l}, &opts).Rank(ctx, &opts)
	if err == nil && len(ranked) == 0 {
		err = errors.New("no rows ranked")
	}
	return err
}
