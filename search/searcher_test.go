package search

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/query"
)

// TestSearcherReadsItsPlan: a Searcher reads the revisions its plan
// resolved, and asks git nothing again. HEAD is resolved once; when HEAD
// then moves to a commit without the function, the searcher still
// answers from the commit planned, in every mode asked of it.
func TestSearcherReadsItsPlan(t *testing.T) {
	r := gittest.New(t)
	r.Commit("add retry", map[string]string{"net/retry.go": gittest.RetryGo, "cfg/config.py": gittest.ConfigPy})
	repo := openRepo(t, r.Dir)
	ctx := context.Background()
	emb := embed.Default()
	opts := Options{Query: "RetryWithBackoff", Rev: "HEAD", Embedder: emb}
	p, err := NewPlan(repo, opts)
	if err != nil {
		t.Fatal(err)
	}
	planned := p.Want.Commits[0]
	v, _, err := indexer.Ensure(ctx, repo, indexer.Options{Embedder: emb}, indexer.Request{Want: p.Want, Parts: indexer.All, LockWait: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	r.Git("rm", "-q", "net/retry.go")
	r.Git("commit", "-qm", "remove retry")

	s := NewSearcher(v, p)
	for _, mode := range []string{ModeHybrid, ModeSymbol, ModeText, ModeVector} {
		o := opts
		o.Mode = mode
		res, err := s.Search(ctx, nil, o)
		if err != nil {
			t.Fatalf("mode %s: %v", mode, err)
		}
		if res.Commit.Hash != planned.Hash || !hasHit(res, "RetryWithBackoff") {
			t.Errorf("mode %s: searched %s (hits %+v); want the planned %s, which holds RetryWithBackoff", mode, res.Commit.Hash, res.Hits, planned.Hash)
		}
	}
	now := run(t, repo, opts)
	if now.Commit.Hash == planned.Hash || hasHit(now, "RetryWithBackoff") {
		t.Errorf("a new plan searched %s with hits %+v; want the new HEAD, without RetryWithBackoff", now.Commit.Hash, now.Hits)
	}
}

// TestSearcherRefusesOtherSelection: options that select other revisions
// or filters than the plan's are refused, not searched with the plan's;
// the query itself may be passed apart, parsed.
func TestSearcherRefusesOtherSelection(t *testing.T) {
	r := gittest.New(t)
	r.Commit("add retry", map[string]string{"net/retry.go": gittest.RetryGo, "cfg/config.py": gittest.ConfigPy})
	repo := openRepo(t, r.Dir)
	ctx := context.Background()
	opts := Options{Query: "retry", Rev: "HEAD", Mode: ModeText, Path: "net/**"}
	p, err := NewPlan(repo, opts)
	if err != nil {
		t.Fatal(err)
	}
	v, _, err := indexer.Ensure(ctx, repo, indexer.Options{}, indexer.Request{Want: p.Want, Parts: indexer.Exact, LockWait: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	s := NewSearcher(v, p)
	for name, change := range map[string]func(*Options){
		"path":    func(o *Options) { o.Path = "cfg/**" },
		"exclude": func(o *Options) { o.Exclude = []string{"net/**"} },
		"lang":    func(o *Options) { o.Lang = "go" },
		"kind":    func(o *Options) { o.Kind = "function" },
		"rev":     func(o *Options) { o.Rev = "HEAD~1" },
		"only-in": func(o *Options) { o.OnlyIn = []string{"HEAD"} },
		"refs":    func(o *Options) { o.Refs.AllBranches = true },
	} {
		o := opts
		change(&o)
		if _, err := s.Search(ctx, nil, o); !errors.Is(err, ErrOtherSelection) {
			t.Errorf("%s changed: %v; want ErrOtherSelection", name, err)
		}
	}
	q, err := query.Parse("retry")
	if err != nil {
		t.Fatal(err)
	}
	o := opts
	o.Query = ""
	res, err := s.Search(ctx, &q, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) == 0 {
		t.Fatal("no hits for retry under net/")
	}
	for _, h := range res.Hits {
		if h.Path != "net/retry.go" {
			t.Errorf("hit at %s; the plan's path filter allows net/** only", h.Path)
		}
	}
}
