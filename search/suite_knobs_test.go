package search

import (
	"flag"
	"fmt"
	"strings"
	"testing"
)

var suiteKnobs = flag.String("suite.knobs", "", "quality suite: ranking settings to compare (name=value,...; variants separated by ';'), scored on -suite.tune's half (default both)")

// TestSuiteKnobs scores the quality suite once per variant of the ranking
// settings (export_test.go), indexing it once: per half, the hybrid's mean
// MRR@10 with docs kept and stripped, on the questions, and exact-name
// recall@1. The dev suite's tuning tool (devsuite_test.go) takes the same
// settings, so a change is measured on both.
//
//	go test ./search -run TestSuiteKnobs -v -suite.knobs ';fileDecay=1'
func TestSuiteKnobs(t *testing.T) {
	if *suiteKnobs == "" {
		t.Skip("run with -suite.knobs")
	}
	repos := buildSuite(t, *suiteTune)
	for _, variant := range strings.Split(*suiteKnobs, ";") {
		restore, err := SetRankingKnobs(variant)
		if err != nil {
			t.Fatal(err)
		}
		sums := map[string]map[string]float64{}
		ns := map[string]map[string]int{}
		add := func(split, set string, x float64) {
			if sums[split] == nil {
				sums[split], ns[split] = map[string]float64{}, map[string]int{}
			}
			sums[split][set] += x
			ns[split][set]++
		}
		for _, s := range repos {
			h := Options{Mode: ModeHybrid}
			add(s.pkg.Split, "kept", evaluateOpts(t, s.kept, s.docQ, h).MRR10)
			add(s.pkg.Split, "stripped", evaluateOpts(t, s.strip, s.docQ, h).MRR10)
			add(s.pkg.Split, "names", evaluateOpts(t, s.kept, s.nameQ, h).Recall1)
			if s.quest != nil {
				add(s.pkg.Split, "questions", scoreRanks(questionRanks(askQuestions(t, s, h))).MRR10)
			}
		}
		restore()
		var b strings.Builder
		fmt.Fprintf(&b, "variant %q:", variant)
		for _, split := range []string{"suite-dev", "suite-test"} {
			if sums[split] == nil {
				continue
			}
			fmt.Fprintf(&b, "\n  %-10s", split)
			for _, set := range []string{"kept", "stripped", "questions", "names"} {
				fmt.Fprintf(&b, " %s %.3f", set, sums[split][set]/float64(max(1, ns[split][set])))
			}
		}
		t.Log(b.String())
	}
}
