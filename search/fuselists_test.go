package search

import (
	"testing"

	"github.com/bcindex/bcindex/query"
)

func parsed(t *testing.T, s string) *query.Query {
	t.Helper()
	q, err := query.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return &q
}

func keys(ss []Scored) []int {
	out := make([]int, len(ss))
	for i, s := range ss {
		out[i] = s.Key
	}
	return out
}

// TestFuseListsRules: candidates from outside a local index are ranked by
// local search's rules: a test below the code it tests, a file's second
// chunk below another file's first, a definition of the name looked up
// first, and nothing that no arm returned.
func TestFuseListsRules(t *testing.T) {
	cands := []Candidate{
		{Name: "retryRequest", Kind: "function", Path: "net/client.go", Language: "go"},
		{Name: "TestRetryRequest", Kind: "function", Path: "net/client_test.go", Language: "go"},
		{Name: "backoffDelay", Kind: "function", Path: "net/client.go", Language: "go"},
		{Name: "sleepFor", Kind: "function", Path: "net/clock.go", Language: "go"},
		{Name: "unrelated", Kind: "function", Path: "net/other.go", Language: "go"},
	}
	q := parsed(t, "retry the request with backoff")
	lists := []ArmList{
		{Mode: ModeText, Keys: []int{0, 1, 2, 3}, Scores: []float64{9, 9, 8.9, 8.5}, Coverage: 0.4, Terms: 0.75},
		{Mode: ModeVector, Keys: []int{0, 1, 2, 3}, Scores: []float64{0.8, 0.8, 0.79, 0.75}},
	}
	got := keys(FuseLists(q, lists, cands))
	if len(got) != 4 {
		t.Fatalf("ranked %v; want the four candidates the arms returned", got)
	}
	pos := map[int]int{}
	for i, k := range got {
		pos[k] = i
	}
	if pos[0] != 0 {
		t.Errorf("order %v: the code (0) is not first", got)
	}
	if pos[1] < pos[3] {
		t.Errorf("order %v: the test (1) ranks above another file's code (3) at lower arm scores", got)
	}
	if pos[2] < pos[3] {
		t.Errorf("order %v: client.go's second chunk (2) ranks above clock.go's first (3) despite the file decay", got)
	}

	// A name looked up: its definition first, though BM25 ranks it last.
	q = parsed(t, "backoffDelay")
	lists = []ArmList{{Mode: ModeText, Keys: []int{0, 3, 2}, Scores: []float64{5, 4, 1}, Coverage: 0.45, Terms: 1}}
	got = keys(FuseLists(q, lists, cands))
	if len(got) == 0 || got[0] != 2 {
		t.Errorf("order %v for backoffDelay: its definition (2) is not first", got)
	}
}

// TestFuseListsAsLocal: the fusion FuseLists runs is the one local search
// runs (fuseScores): the same arms give the same scores as through a
// fusionConfig directly, before the last stage.
func TestFuseListsAsLocal(t *testing.T) {
	cands := []Candidate{
		{Name: "parse", Kind: "function", Path: "a/parse.go", Language: "go"},
		{Name: "Config", Kind: "struct", Path: "b/config.go", Language: "go"},
	}
	q := parsed(t, "read the config file")
	lists := []ArmList{
		{Mode: ModeText, Keys: []int{1, 0}, Scores: []float64{3, 1}, Coverage: 0.3, Terms: 0.5},
		{Mode: ModeVector, Keys: []int{0, 1}, Scores: []float64{0.7, 0.6}},
	}
	f := defaultFusion()
	arms := []arm{{name: ModeSymbol, weight: f.weights[ModeSymbol]},
		{name: ModeText, weight: f.weights[ModeText], top: textTop{coverage: 0.3, terms: 0.5}, cands: []cand{{row: 1, score: 3}, {row: 0, score: 1}}},
		{name: ModeVector, weight: f.weights[ModeVector], cands: []cand{{row: 0, score: 0.7}, {row: 1, score: 0.6}}}}
	want := f.fuseScores(q, arms, true, func(k [2]int) rowInfo {
		return rowInfo{kind: cands[k[1]].Kind, path: cands[k[1]].Path, parent: -1}
	})
	got := FuseLists(q, lists, cands)
	if len(got) != len(want) {
		t.Fatalf("FuseLists %v; fuseScores %v", got, want)
	}
	for _, w := range want {
		for _, g := range got {
			if g.Key == w.row {
				// The last stage only multiplies by path priors, none of
				// which these paths carry, and decays no file (one chunk
				// each).
				if d := g.Score - w.score*pathPrior(cands[g.Key].Path, "go", q); d > 1e-9 || d < -1e-9 {
					t.Errorf("candidate %d: FuseLists %v, fuseScores %v", g.Key, g.Score, w.score)
				}
			}
		}
	}
}
