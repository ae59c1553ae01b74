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

// suiteGolden holds each package's fused MRR@10 per set (recall@1 for
// exact names; every question for the questions set) at go test's size: a
// change that lowers any of them fails.
const suiteGolden = "testdata/suite.json"

var gateKnobs = flag.String("gate.knobs", "", "the quality gates (TestSuiteQuality, TestSearchQuality): ranking settings to score instead of the defaults, name=value,...")

// TestSuiteQuality runs the multilingual quality suite at small size (the
// bench, or -suite.full, runs every query), logs the per-package tables and
// fails when any package's fused score falls below the golden file (refresh
// it with -update).
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
	table := suiteTable(results) + "\n" + questionsTable(results)
	t.Logf("quality suite:\n%s", table)
	if *suiteOut != "" {
		if err := os.WriteFile(*suiteOut, []byte(table), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if *suiteFull {
		return // the golden file is for go test's size
	}
	got := map[string]map[string]float64{}
	for _, r := range results {
		k := r.Package + " " + r.Split
		got[k] = map[string]float64{
			"doc-kept":     r.Scores["doc-kept"][ModeHybrid].MRR10,
			"doc-stripped": r.Scores["doc-stripped"][ModeHybrid].MRR10,
			"exact-name":   r.Scores["exact-name"][ModeHybrid].Recall1,
		}
		if q, ok := r.Scores["questions"]; ok {
			got[k]["questions"] = q[ModeHybrid].MRR10
		}
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
	var want map[string]map[string]float64
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range want {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		for set, w := range want[k] {
			g, ok := got[k][set]
			if !ok {
				t.Errorf("%s: no %s score (suite package missing?)", k, set)
			} else if g < w-0.005 {
				t.Errorf("%s %s: fused score fell from %.3f to %.3f", k, set, w, g)
			}
		}
	}
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
