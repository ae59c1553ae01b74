package search_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/bench/relevance"
	"github.com/bcindex/bcindex/search"
)

var (
	devSuite = flag.String("dev.suite", "../bench/suites/dev", "dev suite: its directory")
	devRepos = flag.String("dev.repos", "", "dev suite: the directory of its repositories by name (bench/relevance); the tool runs when set")
	devWork  = flag.String("dev.work", "", "dev suite: where the built trees and their indexes are kept between runs")
	devKnobs = flag.String("dev.knobs", "", "dev suite: ranking settings to compare, name=value,name=value; variants separated by ';' (an empty variant: the defaults)")
	devModes = flag.String("dev.modes", "hybrid", "dev suite: modes to score")
	devJSON  = flag.String("dev.json", "", "dev suite: write the last variant's report, every query's ranks and hits included, to this file")
)

// TestDevSuite is the tool ranking is tuned with: it scores the dev suite
// (bench/suites/dev, in semble's shape) once per variant of the ranking
// settings and logs NDCG@10 per language and category, then all.
//
//	go test ./search -run TestDevSuite -v -dev.repos DIR -dev.work DIR -dev.knobs ';rerank=0'
func TestDevSuite(t *testing.T) {
	if *devRepos == "" {
		t.Skip("run with -dev.repos DIR (the dev suite's repositories by name)")
	}
	work := *devWork
	if work == "" {
		work = t.TempDir()
	}
	for _, variant := range strings.Split(*devKnobs, ";") {
		restore, err := search.SetRankingKnobs(variant)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := relevance.Run(context.Background(), relevance.Config{Suite: *devSuite, ReposDir: *devRepos, Work: work,
			Modes: strings.Split(*devModes, ","), PerQuery: *devJSON != ""})
		restore()
		if err != nil {
			t.Fatal(err)
		}
		if *devJSON != "" {
			b, err := json.MarshalIndent(rep, "", " ")
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(*devJSON, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		var b strings.Builder
		fmt.Fprintf(&b, "variant %q:\n", variant)
		row := func(g relevance.Group) {
			fmt.Fprintf(&b, "  %-14s", g.Name)
			for _, m := range rep.Modes {
				x := g.Modes[m]
				fmt.Fprintf(&b, " %s %.3f (@5 %.3f, hit@1 %.3f)", m, x.NDCG10, x.NDCG5, x.Hit1)
			}
			b.WriteByte('\n')
		}
		for _, g := range rep.ByLanguage {
			row(g)
		}
		for _, g := range rep.ByCategory {
			row(g)
		}
		row(rep.All)
		t.Log(b.String())
	}
}
