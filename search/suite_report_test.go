package search

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// suiteGolden holds, per language, the fused score of each set over the
// language's packages pooled (MRR@10; recall@1 for exact names; every
// question for the questions set) at go test's size, with how many queries
// it pools (suiteLanguage per set where the packages have them). A change
// that lowers a language's score of a set by more than suiteTolerance
// fails. One package's 20 queries moved by one query's rank; a language's
// hundred move by what the change does to the language.
const suiteGolden = "testdata/suite-languages.json"

// suiteTolerance is how far a language's pooled score may fall below the
// golden file before the gate fails.
const suiteTolerance = 0.01

// suiteSets are the sets the gate pools, each scored by its metric.
var suiteSets = []string{"doc-kept", "doc-stripped", "exact-name", "questions"}

var gateKnobs = flag.String("gate.knobs", "", "the quality gates (TestSuiteQuality, TestSearchQuality): ranking settings to score instead of the defaults, name=value,...")

// TestSuiteQuality runs the multilingual quality suite at go test's size
// (suiteLanguage queries per language and set; -suite.full asks every
// query), logs the per-package tables and the per-language figures, and
// fails when a language's pooled fused score of a set falls below the
// golden file by more than suiteTolerance (refresh it with -update).
func TestSuiteQuality(t *testing.T) {
	if testing.Short() {
		t.Skip("quality suite skipped in -short mode")
	}
	if *gateKnobs != "" {
		restore, err := SetRankingKnobs(*gateKnobs)
		if err != nil {
			t.Fatal(err)
		}
		defer restore()
	}
	var results []suiteResult
	for _, s := range buildSuite(t, "") {
		results = append(results, scoreSuite(t, s))
	}
	got := poolLanguages(results)
	table := suiteTable(results) + "\n" + questionsTable(results) + "\n" + languageTable(got)
	t.Logf("quality suite:\n%s", table)
	if *suiteOut != "" {
		if err := os.WriteFile(*suiteOut, []byte(table), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if *suiteFull {
		return // the golden file is for go test's size
	}
	if *update {
		b, _ := json.MarshalIndent(got, "", "  ")
		if err := os.WriteFile(suiteGolden, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	b, err := os.ReadFile(suiteGolden)
	if err != nil {
		t.Fatalf("read golden file (create it with -update): %v", err)
	}
	var want map[string]map[string]pooled
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatalf("read %s: %v", suiteGolden, err)
	}
	for _, msg := range compareLanguages(want, got, suiteTolerance) {
		t.Error(msg)
	}
}

// pooled is one language's fused score of one set over its packages'
// queries, and how many queries that is.
type pooled struct {
	Score   float64 `json:"score"`
	Queries int     `json:"queries"`
}

// suiteMetric is the fused figure a set is gated on.
func suiteMetric(set string, s armScore) float64 {
	if set == "exact-name" {
		return s.Recall1
	}
	return s.MRR10
}

// poolLanguages pools each language's packages: per set, the mean of the
// packages' fused scores weighted by their queries (each package's score
// being the mean over its queries, this is the mean over the language's).
func poolLanguages(results []suiteResult) map[string]map[string]pooled {
	sum := map[string]map[string]float64{}
	out := map[string]map[string]pooled{}
	for _, r := range results {
		if out[r.Lang] == nil {
			out[r.Lang], sum[r.Lang] = map[string]pooled{}, map[string]float64{}
		}
		for _, set := range suiteSets {
			sc, ok := r.Scores[set][ModeHybrid]
			n := r.Queries[set]
			if set == "doc-kept" || set == "doc-stripped" {
				n = r.Queries["doc"]
			}
			if !ok || n == 0 {
				continue
			}
			sum[r.Lang][set] += suiteMetric(set, sc) * float64(n)
			p := out[r.Lang][set]
			p.Queries += n
			out[r.Lang][set] = p
		}
	}
	for lang, sets := range out {
		for set, p := range sets {
			p.Score = round3(sum[lang][set] / float64(p.Queries))
			sets[set] = p
		}
	}
	return out
}

// compareLanguages lists every language and set of want whose score in got
// is lower by more than tol, missing, or pooled from fewer queries.
func compareLanguages(want, got map[string]map[string]pooled, tol float64) []string {
	var out []string
	for _, lang := range sortedKeys(want) {
		for _, set := range sortedKeys(want[lang]) {
			w := want[lang][set]
			g, ok := got[lang][set]
			switch {
			case !ok:
				out = append(out, fmt.Sprintf("%s %s: no score (a suite package or set missing?)", lang, set))
			case g.Queries < w.Queries:
				out = append(out, fmt.Sprintf("%s %s: %d queries, the golden file pools %d (rewrite it with -update if the suite changed)", lang, set, g.Queries, w.Queries))
			case g.Score < w.Score-tol:
				out = append(out, fmt.Sprintf("%s %s: fused score fell from %.3f to %.3f (%d queries; tolerance %.2f)", lang, set, w.Score, g.Score, g.Queries, tol))
			}
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// languageTable renders the pooled figures, a row per language.
func languageTable(got map[string]map[string]pooled) string {
	var b strings.Builder
	b.WriteString("| language | docs kept MRR@10 (q) | docs stripped MRR@10 (q) | exact names R@1 (q) | questions MRR@10 (q) |\n")
	b.WriteString("|---|---|---|---|---|\n")
	for _, lang := range sortedKeys(got) {
		fmt.Fprintf(&b, "| %s |", lang)
		for _, set := range suiteSets {
			if p, ok := got[lang][set]; ok {
				fmt.Fprintf(&b, " %.3f (%d) |", p.Score, p.Queries)
			} else {
				b.WriteString(" — |")
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

// suiteTable renders the results as a Markdown table, one row per package:
// MRR@10 per arm with docs kept and stripped, recall@1 for exact names.
func suiteTable(results []suiteResult) string {
	sort.SliceStable(results, func(i, j int) bool {
		if results[i].Split != results[j].Split {
			return results[i].Split < results[j].Split
		}
		return results[i].Lang < results[j].Lang
	})
	var b strings.Builder
	b.WriteString("| half | language | package | doc q | docs kept: BM25 / text / vector / **hybrid** | docs stripped: BM25 / text / vector / **hybrid** | names q | exact name R@1: BM25 / symbol / **hybrid** |\n")
	b.WriteString("|---|---|---|---:|---|---|---:|---|\n")
	for _, r := range results {
		row := func(set string, arms ...string) string {
			var s []string
			for i, a := range arms {
				sc := r.Scores[set][a]
				v := sc.MRR10
				if set == "exact-name" {
					v = sc.Recall1
				}
				f := fmt.Sprintf("%.3f", v)
				if i == len(arms)-1 {
					f = "**" + f + "**"
				}
				s = append(s, f)
			}
			return strings.Join(s, " / ")
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %d | %s | %s | %d | %s |\n",
			strings.TrimPrefix(r.Split, "suite-"), r.Lang, shortName(r.Package), r.Queries["doc"],
			row("doc-kept", armBM25, ModeText, ModeVector, ModeHybrid),
			row("doc-stripped", armBM25, ModeText, ModeVector, ModeHybrid),
			r.Queries["exact-name"], row("exact-name", armBM25, ModeSymbol, ModeHybrid))
	}
	return b.String()
}

// shortName is a package's last path element, with the one before it when
// that is a major version (go-toml/v2).
func shortName(p string) string {
	base := filepath.Base(p)
	if len(base) > 1 && base[0] == 'v' && strings.Trim(base[1:], "0123456789") == "" {
		return filepath.Base(filepath.Dir(p)) + "/" + base
	}
	return base
}
