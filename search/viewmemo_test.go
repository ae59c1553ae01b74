package search

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// TestViewMemoShared checks the blobs and rows a view derives once per
// store.View and filters: two queries share them, each gets its own
// allowed rows (clearing one query's leaves the next query's as built),
// other filters derive their own, and every answer on a view opened once
// is the answer of a store opened for the query alone.
func TestViewMemoShared(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", map[string]string{
		"net/retry.go":      gittest.RetryGo,
		"net/copy/retry.go": gittest.RetryGo,
		"p/p.go":            undocumented,
		"cfg/config.go":     "package cfg\n\n// Load reads the configuration file.\nfunc Load(path string) error { return nil }\n\nfunc retried(p string) error { return nil }\n",
		"cfg/retry.py":      "def retry(times):\n    \"\"\"Retry a call several times.\"\"\"\n    return times\n\n\nclass Backoff:\n    def wait(self):\n        return 1\n",
	})
	repo := openRepo(t, r.Dir)
	run(t, repo, Options{Query: "retry"})
	ctx := context.Background()
	emb := embed.Default()
	rd := openDefaultStore(t, repo)

	opts := Options{Query: "retry", Embedder: emb}
	a := viewOf(repo, rd.Want.Commits[0], rd, 1, &opts)
	fresh := newView(repo, rd.Want.Commits[0], rd.Snap, rd.Listings[:1], rd.Fresh[:1], rd.Located[:1], &opts)
	rows := 0
	for s := range a.allow {
		rows += int(a.allow[s].Count())
		a.allow[s].ClearAll() // as restrictToSets or Ranking.Hide would
	}
	if rows < 10 {
		t.Fatalf("%d visible rows; the test needs more", rows)
	}
	b := viewOf(repo, rd.Want.Commits[0], rd, 1, &opts)
	for s := range b.allow {
		if !b.allow[s].Equal(fresh.allow[s]) {
			t.Errorf("segment %d: the second query's rows %v, a view built alone %v", s, b.allow[s], fresh.allow[s])
		}
	}
	// The text arm's statistics: the kept view's for b, counted anew for
	// a, whose rows were cleared.
	if n, l := b.visibleLens(); n == 0 || (visLens{n, l}) != countLens(fresh) {
		t.Errorf("the second query's text statistics %d rows, %d long; a view built alone: %+v", n, l, countLens(fresh))
	}
	if n, l := a.visibleLens(); n != 0 || l != 0 {
		t.Errorf("a query whose rows were cleared counts %d rows, %d long", n, l)
	}
	if len(a.slot) == 0 || len(a.slot[0]) == 0 || &a.slot[0][0] != &b.slot[0][0] || &a.visible[0] != &b.visible[0] {
		t.Error("two queries on one view derived its blobs twice")
	}
	if len(b.visible) != len(fresh.visible) || len(b.added) != len(fresh.added) {
		t.Errorf("the kept view shows %d blobs (%d added), a view built alone %d (%d)", len(b.visible), len(b.added), len(fresh.visible), len(fresh.added))
	}
	py := Options{Query: "retry", Lang: "python", Embedder: emb}
	c := viewOf(repo, rd.Want.Commits[0], rd, 1, &py)
	if c.allow[0].Count() == 0 || c.allow[0].Count() >= fresh.allow[0].Count() {
		t.Errorf("--lang python allows %d rows of %d", c.allow[0].Count(), fresh.allow[0].Count())
	}

	// Answers on the view opened once, each query twice, against a store
	// opened per query.
	for _, o := range []Options{
		{Query: "retry"},
		{Query: "retry", Path: "cfg/"},
		{Query: "retry", Exclude: []string{"net/copy/**"}},
		{Query: "retry", Lang: "python"},
		{Query: "retry", Kind: "function"},
		{Query: "configuration file", Mode: ModeText},
		{Query: "retry", Files: true},
	} {
		o.Embedder = emb
		want, err := json.Marshal(run(t, repo, o).Hits)
		if err != nil {
			t.Fatal(err)
		}
		po, err := NewPlan(repo, o)
		if err != nil {
			t.Fatal(err)
		}
		s := NewSearcher(rd, po)
		for i := range 2 {
			res, err := s.Search(ctx, nil, o)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := json.Marshal(res.Hits)
			if string(got) != string(want) {
				t.Errorf("%+v, query %d on the kept view:\n%s\nopened for it:\n%s", o, i, got, want)
			}
		}
	}
}
