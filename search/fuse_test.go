package search

import (
	"testing"

	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// TestTextShareKeptWhenEveryWordMatches: a long query scores a low BM25
// coverage even on a row holding each of its words (each occurs once);
// the text arm's share shrinks only when its top row lacks some of them.
func TestTextShareKeptWhenEveryWordMatches(t *testing.T) {
	text := func(coverage, terms float64) []arm {
		return []arm{{name: ModeText, cands: []cand{{score: 1}}, top: textTop{coverage: coverage, terms: terms}}}
	}
	f := defaultFusion()
	for _, c := range []struct {
		coverage, terms, want float64
	}{
		{0.3, 1, f.convexText},
		{0.3, 0.5, f.convexText * 0.3 / f.coverageRef},
		{0.9, 0.5, f.convexText},
		{0, 0, 0},
	} {
		wt, wv, _ := f.convexWeights(text(c.coverage, c.terms))
		if d := wt - c.want; d > 1e-9 || d < -1e-9 || wt+wv != 1 {
			t.Errorf("coverage %.1f, terms %.1f: text %.3f vector %.3f, want text %.3f", c.coverage, c.terms, wt, wv, c.want)
		}
	}
}

// TestQueryInWordsPrefersCode: a type and a function whose docs say the
// same thing; a query in words ranks the function first.
func TestQueryInWordsPrefersCode(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", map[string]string{
		"retry/backoff.go": "package retry\n\nimport \"time\"\n\n// Backoff doubles the delay between attempts until the deadline.\ntype Backoff struct {\n\tdelay time.Duration\n}\n\n// Sleep doubles the delay between attempts until the deadline.\nfunc Sleep(d time.Duration) time.Duration {\n\ttime.Sleep(d)\n\treturn 2 * d\n}\n",
	})
	repo := openRepo(t, r.Dir)
	first := func(mode, query string, ranking *fusionConfig) string {
		res := run(t, repo, Options{Query: query, Mode: mode, ranking: ranking})
		if len(res.Hits) == 0 {
			t.Fatalf("%s %q: no hit", mode, query)
		}
		return res.Hits[0].Name
	}
	if got := first(ModeHybrid, "doubles the delay between attempts", nil); got != "Sleep" {
		t.Errorf("first hit %s, want the function Sleep", got)
	}
	if got := first(ModeHybrid, "Backoff", nil); got != "Backoff" {
		t.Errorf("one-word query: first hit %s, want the type Backoff", got)
	}
	// The prior is what decides: without it the type, whose chunk is
	// shorter, ranks first.
	noPrior := defaultFusion()
	noPrior.typePrior = 1
	if got := first(ModeHybrid, "doubles the delay between attempts", &noPrior); got != "Backoff" {
		t.Errorf("without the prior: first hit %s, want Backoff", got)
	}
}
