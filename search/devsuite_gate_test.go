package search_test

import (
	"context"
	"encoding/json"
	"flag"
	"math"
	"os"
	"sort"
	"testing"

	"github.com/bcindex/bcindex/bench/relevance"
)

// devGolden holds the dev suite's hybrid NDCG@10 per language, per
// category and over all its repositories, as the default ranking scores
// them (TestDevSuiteGate).
const devGolden = "testdata/devsuite.json"

// devGateTolerance is how far a group's score may fall below the golden
// file before the gate fails.
const devGateTolerance = 0.01

// TestDevSuiteGate is the regression gate of ranking on the dev suite
// (bench/suites/dev): the default search's NDCG@10 per language, per
// category and over all, none lower than the golden file by more than
// devGateTolerance. It needs the suite's repositories (-dev.repos; see
// TestDevSuite) and skips without them; -update rewrites the golden file.
//
//	go test ./search -run TestDevSuiteGate -dev.repos DIR -dev.work DIR
func TestDevSuiteGate(t *testing.T) {
	if *devRepos == "" {
		t.Skip("run with -dev.repos DIR (the dev suite's repositories by name)")
	}
	work := *devWork
	if work == "" {
		work = t.TempDir()
	}
	rep, err := relevance.Run(context.Background(), relevance.Config{Suite: *devSuite, ReposDir: *devRepos, Work: work,
		Modes: []string{"hybrid"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Skipped) > 0 {
		t.Fatalf("repositories skipped: %+v", rep.Skipped)
	}
	got := map[string]float64{"all": rep.All.Modes["hybrid"].NDCG10}
	for _, g := range rep.ByLanguage {
		got["language "+g.Name] = g.Modes["hybrid"].NDCG10
	}
	for _, g := range rep.ByCategory {
		got["category "+g.Name] = g.Modes["hybrid"].NDCG10
	}
	for k, x := range got {
		got[k] = math.Round(x*1000) / 1000
	}
	if f := flag.Lookup("update"); f != nil && f.Value.String() == "true" {
		b, _ := json.MarshalIndent(got, "", "  ")
		if err := os.WriteFile(devGolden, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	b, err := os.ReadFile(devGolden)
	if err != nil {
		t.Fatalf("read the golden file (create it with -update): %v", err)
	}
	var want map[string]float64
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatalf("read %s: %v", devGolden, err)
	}
	keys := make([]string, 0, len(want))
	for k := range want {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		g, ok := got[k]
		switch {
		case !ok:
			t.Errorf("%s: no score (the suite changed? rewrite the golden file with -update)", k)
		case g < want[k]-devGateTolerance:
			t.Errorf("%s: hybrid NDCG@10 fell from %.3f to %.3f", k, want[k], g)
		default:
			t.Logf("%s: %.3f (golden %.3f)", k, g, want[k])
		}
	}
}
