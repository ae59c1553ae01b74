package search_test

import (
	"context"
	"path"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/bench/relevance"
	"github.com/bcindex/bcindex/search"
)

// The dev suite's share of the second stage's training data
// (rerank_train_test.go): each multi-word query's pool, every candidate
// labelled with the targets it covers as the suite scores them (its path
// and, for a span, its lines). The training tool asks for it when run
// with -dev.repos.
func init() { search.SetDevPools(devPools) }

func devPools(t testing.TB) []search.PoolQuery {
	if *devRepos == "" {
		return nil
	}
	suite, err := relevance.LoadSuite(*devSuite)
	if err != nil {
		t.Fatal(err)
	}
	work := *devWork
	if work == "" {
		work = t.TempDir()
	}
	var out []search.PoolQuery
	for _, sr := range suite.Repos {
		r, err := relevance.Open(context.Background(), sr.Spec, relevance.OpenOptions{ReposDir: *devRepos, Work: work})
		if err != nil {
			t.Fatal(err)
		}
		for _, task := range sr.Tasks {
			targets := task.All()
			present := 0
			for _, tg := range targets {
				for _, s := range r.Spans {
					if covers(s, tg) {
						present++
						break
					}
				}
			}
			var pool []search.PoolCand
			restore := search.CollectPools(func(_ string, p []search.PoolCand) { pool = p })
			_, err := r.Search(context.Background(), task.Query, relevance.ModeHybrid, 10)
			restore()
			if err != nil {
				t.Fatal(err)
			}
			if pool == nil {
				continue // one word: the second stage does not run
			}
			pq := search.PoolQuery{Pkg: sr.Name, Lang: sr.Language, Set: "dev-suite", NTargets: present, Query: task.Query}
			for _, c := range pool {
				row := c.Row
				s := relevance.Span{Path: path.Join(sr.Root, c.Path), StartLine: c.StartLine, EndLine: c.EndLine}
				for i, tg := range targets {
					if covers(s, tg) {
						row.Covers = append(row.Covers, i)
						row.Pos = true
					}
				}
				pq.Rows = append(pq.Rows, row)
			}
			out = append(out, pq)
		}
		r.Close()
	}
	return out
}

// covers is the suite's rule (bench/relevance): the paths are equal or one
// ends with "/" and the other, and a span's lines overlap.
func covers(s relevance.Span, t relevance.Target) bool {
	f, p := s.Path, t.Path
	if !(f == p || strings.HasSuffix(f, "/"+p) || strings.HasSuffix(p, "/"+f)) {
		return false
	}
	return !t.HasSpan() || !(s.EndLine < t.StartLine || s.StartLine > t.EndLine)
}
