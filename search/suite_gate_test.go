package search

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestFairShares: a language's queries are spread evenly over its
// packages, a package with fewer giving all it has and the others making
// up the rest as far as they can.
func TestFairShares(t *testing.T) {
	for _, tt := range []struct {
		have []int
		want []int
	}{
		{[]int{226, 108}, []int{50, 50}},
		{[]int{12, 89}, []int{12, 88}}, // php's doc queries: symfony-string has 12
		{[]int{89, 12}, []int{88, 12}},
		{[]int{231}, []int{100}},
		{[]int{30, 40}, []int{30, 40}}, // fewer than 100 in all: every one
		{[]int{100, 100, 100}, []int{34, 33, 33}},
	} {
		got := fairShares(tt.have, 100)
		if !slices.Equal(got, tt.want) {
			t.Errorf("fairShares(%v, 100) = %v; want %v", tt.have, got, tt.want)
		}
	}
}

// TestCompareLanguages: the gate holds the golden file against itself and
// a change within the tolerance, pools at least suiteLanguage queries per
// language and set (questions: every one), and fails on the figures of a
// worse ranking (gateWorse, a real run) in exactly the cells that fell by
// more than the tolerance, on a missing language and on fewer queries.
func TestCompareLanguages(t *testing.T) {
	b, err := os.ReadFile(suiteGolden)
	if err != nil {
		t.Fatal(err)
	}
	var golden map[string]map[string]pooled
	if err := json.Unmarshal(b, &golden); err != nil {
		t.Fatal(err)
	}
	if msgs := compareLanguages(golden, golden, suiteTolerance); len(msgs) > 0 {
		t.Errorf("the golden file against itself: %v", msgs)
	}
	if len(golden) < 8 {
		t.Errorf("the golden file has %d languages; the suite has 8", len(golden))
	}
	for lang, sets := range golden {
		for set, p := range sets {
			if set != "questions" && p.Queries < suiteLanguage {
				t.Errorf("%s %s: the gate pools %d queries, fewer than %d", lang, set, p.Queries, suiteLanguage)
			}
		}
	}

	// The golden figures of a day and, the same day, the figures of a
	// ranking made worse, as the gate scored them.
	if msgs := compareLanguages(gateBaseline, gateWorse, suiteTolerance); !slices.Equal(failedCells(msgs), gateWorseFails) {
		t.Errorf("the worse ranking fails %q; want %q\n%s", failedCells(msgs), gateWorseFails, strings.Join(msgs, "\n"))
	}
	if msgs := compareLanguages(gateBaseline, gateBaseline, suiteTolerance); len(msgs) > 0 {
		t.Errorf("the figures against themselves: %v", msgs)
	}

	// Within the tolerance, and a missing language or fewer queries.
	near := map[string]map[string]pooled{"go": {"doc-stripped": {Score: 0.502, Queries: 100}}}
	if msgs := compareLanguages(map[string]map[string]pooled{"go": {"doc-stripped": {Score: 0.511, Queries: 100}}}, near, suiteTolerance); len(msgs) > 0 {
		t.Errorf("0.511 → 0.502 is within 0.01: %v", msgs)
	}
	if msgs := compareLanguages(golden, map[string]map[string]pooled{}, suiteTolerance); len(msgs) == 0 {
		t.Error("no language scored passes")
	}
	fewer := map[string]map[string]pooled{"go": {"doc-stripped": {Score: 0.6, Queries: 40}}}
	if msgs := compareLanguages(map[string]map[string]pooled{"go": {"doc-stripped": {Score: 0.511, Queries: 100}}}, fewer, suiteTolerance); len(msgs) != 1 {
		t.Errorf("40 queries against the golden file's 100: %v", msgs)
	}
}

// failedCells are the "language set" of the gate's messages.
func failedCells(msgs []string) []string {
	var out []string
	for _, m := range msgs {
		lang, rest, _ := strings.Cut(m, " ")
		set, _, _ := strings.Cut(rest, ":")
		out = append(out, lang+" "+set)
	}
	return out
}

// figures builds pooled figures from rows of docs kept, docs stripped,
// exact names and questions, with the questions' count.
func figures(rows map[string][5]float64) map[string]map[string]pooled {
	out := map[string]map[string]pooled{}
	for lang, r := range rows {
		out[lang] = map[string]pooled{
			"doc-kept": {r[0], 100}, "doc-stripped": {r[1], 100}, "exact-name": {r[2], 100}, "questions": {r[3], int(r[4])},
		}
	}
	return out
}

// gateBaseline is the gate's golden figures when the per-language gate was
// made; gateWorse the same suite's with -gate.knobs
// stemWeight=0,pathWeight=0 in the same hour. Turning them off raised
// docs kept in most languages and lowered docs stripped and the questions
// in most: ten cells fall by more than the tolerance.
var (
	gateBaseline = figures(map[string][5]float64{
		"go":         {0.917, 0.511, 0.990, 0.719, 40},
		"java":       {0.903, 0.508, 1.000, 0.422, 47},
		"javascript": {0.904, 0.335, 1.000, 0.576, 26},
		"php":        {0.978, 0.340, 1.000, 0.541, 49},
		"python":     {0.953, 0.382, 1.000, 0.392, 42},
		"ruby":       {0.919, 0.484, 1.000, 0.501, 42},
		"rust":       {0.925, 0.460, 0.990, 0.330, 42},
		"typescript": {0.986, 0.470, 1.000, 0.374, 18},
	})
	gateWorse = figures(map[string][5]float64{
		"go":         {0.938, 0.465, 0.990, 0.686, 40},
		"java":       {0.928, 0.517, 1.000, 0.457, 47},
		"javascript": {0.931, 0.348, 1.000, 0.549, 26},
		"php":        {0.985, 0.362, 1.000, 0.516, 49},
		"python":     {0.957, 0.367, 1.000, 0.382, 42},
		"ruby":       {0.953, 0.463, 1.000, 0.486, 42},
		"rust":       {0.935, 0.417, 0.990, 0.280, 42},
		"typescript": {0.975, 0.473, 1.000, 0.387, 18},
	})
	gateWorseFails = []string{"go doc-stripped", "go questions", "javascript questions", "php questions", "python doc-stripped",
		"ruby doc-stripped", "ruby questions", "rust doc-stripped", "rust questions", "typescript doc-kept"}
)
