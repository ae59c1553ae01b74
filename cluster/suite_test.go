package cluster

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/testkit/suite"
	"github.com/bcindex/bcindex/internal/testkit/weaviatetest"
	"github.com/bcindex/bcindex/search"
)

// remoteSuiteQueries is how many queries per package and set are asked.
const remoteSuiteQueries = 20

// remoteSuiteGap is how far below local search the cluster may fall, per
// set. The cluster ranks with local search's rules (search.FuseLists), but
// its BM25 statistics are over every published repository, its vector
// side is HNSW's approximation, and the stages that read a whole index (a
// file's own BM25) have nothing to read there.
var remoteSuiteGap = map[string]float64{"doc-kept": 0.04, "doc-stripped": 0.06, "exact-name": 0.03}

// TestRemoteSuite compares the ranking through the cluster with local
// search on the multilingual quality suite, both halves: each package is
// published twice, docs kept and docs stripped, as repositories of their
// own, and each query is searched locally in its repository and through the cluster with --repo of it. It fails when the
// cluster's mean over the packages falls below local search's by more than
// remoteSuiteGap of its set.
func TestRemoteSuite(t *testing.T) {
	t.Parallel() // each starts its own servers; together they fit the package timeout
	if testing.Short() {
		t.Skip("quality suite skipped in -short mode")
	}
	dir, pkgs := suite.Load(t, "..")
	srv := weaviatetest.Start(t, 1)
	ctx := context.Background()
	c := open(t, srv.URL())
	type score struct{ local, remote, n float64 }
	sets := []string{"doc-kept", "doc-stripped", "exact-name"}
	byLang := map[string]map[string]*score{} // language → set → summed score
	var mean [3]score
	for _, p := range pkgs {
		repos := map[string]*gitindex.Repo{}
		for i, set := range sets {
			variant, qs := "kept", suite.Sample(p.Doc, remoteSuiteQueries)
			switch set {
			case "doc-stripped":
				variant = "stripped"
			case "exact-name":
				qs = suite.Sample(p.Names, remoteSuiteQueries)
			}
			if len(qs) == 0 {
				continue
			}
			name := p.Name + "/" + variant
			repo := repos[variant]
			if repo == nil {
				repo = remoteSuiteRepo(t, c, filepath.Join(dir, p.Dir, variant), name)
				repos[variant] = repo
			}
			var s score
			for _, q := range qs {
				res, err := search.SearchIndexed(ctx, repo, search.Options{Query: q.Query, K: 10, Embedder: embed.Default(), MaxLines: 1})
				if err != nil {
					t.Fatal(err)
				}
				s.local += credit(set, rankOf(res.Hits, q))
				hits, err := Search(ctx, c, SearchOptions{Query: q.Query, K: 10, Repo: name, Embedder: embed.Default(), MaxLines: 1})
				if err != nil {
					t.Fatal(err)
				}
				local := make([]search.Hit, len(hits))
				for i, h := range hits {
					local[i] = h.Hit
				}
				s.remote += credit(set, rankOf(local, q))
			}
			n := float64(len(qs))
			s = score{s.local / n, s.remote / n, 1}
			if byLang[p.Lang] == nil {
				byLang[p.Lang] = map[string]*score{}
			}
			if byLang[p.Lang][set] == nil {
				byLang[p.Lang][set] = &score{}
			}
			byLang[p.Lang][set].local += s.local
			byLang[p.Lang][set].remote += s.remote
			byLang[p.Lang][set].n++
			mean[i].local += s.local / float64(len(pkgs))
			mean[i].remote += s.remote / float64(len(pkgs))
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "local / cluster, %d queries per package and set (MRR@10; exact names: recall@1):\n", remoteSuiteQueries)
	langs := make([]string, 0, len(byLang))
	for l := range byLang {
		langs = append(langs, l)
	}
	sort.Strings(langs)
	for _, l := range langs {
		fmt.Fprintf(&b, "  %-10s", l)
		for _, set := range sets {
			if s := byLang[l][set]; s != nil {
				fmt.Fprintf(&b, "  %s %.3f / %.3f", set, s.local/s.n, s.remote/s.n)
			}
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "  mean      ")
	for i, set := range sets {
		fmt.Fprintf(&b, "  %s %.3f / %.3f", set, mean[i].local, mean[i].remote)
	}
	t.Log(b.String())
	for i, set := range sets {
		if gap := remoteSuiteGap[set]; mean[i].remote < mean[i].local-gap {
			t.Errorf("%s: cluster %.3f is more than %.2f below local %.3f", set, mean[i].remote, gap, mean[i].local)
		}
	}
}

// remoteSuiteRepo commits one variant of a suite package, indexes and
// publishes it as name (once per test), and returns it opened.
func remoteSuiteRepo(t *testing.T, c *Client, dir, name string) *gitindex.Repo {
	t.Helper()
	r := suite.Commit(t, dir)
	publish(t, c, r.Dir, name)
	repo, err := gitindex.OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { repo.Close() })
	return repo
}

// rankOf is the rank of q's definition among hits (a block inside a
// function stands for it), or -1.
func rankOf(hits []search.Hit, q suite.Query) int {
	for rank, h := range hits {
		if h.Path == q.Path && (h.Name == q.Name || h.Kind == "block" && h.Parent == q.Name) {
			return rank
		}
	}
	return -1
}

// credit is what a rank scores in a set: MRR@10, or recall@1 for exact
// names.
func credit(set string, rank int) float64 {
	switch {
	case rank < 0:
		return 0
	case set == "exact-name":
		if rank == 0 {
			return 1
		}
		return 0
	default:
		return reciprocalRank(rank)
	}
}
