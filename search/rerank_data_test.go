package search

import (
	"context"
	"encoding/gob"
	"os"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
)

// The second stage's training data: for each query of the dev half, the
// pool of candidates the hybrid hands to it (rerank.go), labelled by the
// answer, with the reciprocal rank each arm alone and the first stage
// give the answer.

// poolRow is one candidate: its features, whether it answers the query,
// and what collapse folds it by (its definition, its text).
type poolRow struct {
	X       [nFeatures]float64
	Pos     bool
	Owner   [2]int
	Hash    [16]byte
	Indexed bool
}

// poolQuery is one query's pool and the reciprocal ranks (0 beyond 10)
// of the answer in each arm alone and in the first stage.
type poolQuery struct {
	Pkg, Lang, Set string
	Rows           []poolRow
	RR             map[string]float64 // text, vector, first
}

// answers reports whether a hit answers q (a block inside the function
// stands for it: collapse keeps one of the two).
func answers(path, name, kind, parent string, q evalQuery) bool {
	return path == q.Path && (name == q.Name || kind == "block" && parent == q.Name)
}

// reciprocalRank is 1/rank of q's answer among the hits, 0 when absent.
func reciprocalRank(hits []Hit, q evalQuery) float64 {
	for rank, h := range hits {
		if answers(h.Path, h.Name, h.Kind, h.Parent, q) {
			return 1 / float64(rank+1)
		}
	}
	return 0
}

// collectPools searches each query with the first stage only, keeps its
// pool, and (withArms) also each arm alone.
func collectPools(t testing.TB, repo *gitindex.Repo, qs []evalQuery, pkg, lang, set string, withArms bool) []poolQuery {
	var out []poolQuery
	for _, q := range qs {
		pq := poolQuery{Pkg: pkg, Lang: lang, Set: set, RR: map[string]float64{}}
		f := defaultFusion()
		f.rerank = nil
		f.collect = func(v *view, pool []rerankCand) {
			for _, c := range pool {
				seg := v.snap.Segments[c.key[0]]
				row := seg.Row(c.key[1])
				parent, owner := "", c.key[1]
				if row.Parent >= 0 {
					parent = seg.Row(row.Parent).Name
				}
				for r := seg.Row(owner); r.Kind == "block" && r.Parent >= 0; r = seg.Row(owner) {
					owner = r.Parent
				}
				pq.Rows = append(pq.Rows, poolRow{X: c.x, Owner: [2]int{c.key[0], owner}, Hash: row.Hash, Indexed: row.Indexed,
					Pos: answers(v.pathOf(c.key[0], c.key[1]), row.Name, row.Kind, parent, q)})
			}
		}
		modes := []string{ModeHybrid}
		if withArms {
			modes = append(modes, ModeText, ModeVector)
		}
		for _, mode := range modes {
			o := Options{Query: q.Query, K: 10, Mode: mode, Embedder: embed.Default(), NoIndex: true, MaxLines: 1, ranking: &f}
			res, err := Search(context.Background(), repo, o)
			if err != nil {
				t.Fatalf("search %q: %v", q.Query, err)
			}
			if mode == ModeHybrid {
				mode = "first"
			}
			pq.RR[mode] = reciprocalRank(res.Hits, q)
		}
		out = append(out, pq)
	}
	return out
}

// saveGob and loadGob keep the collected pools between runs of the
// training tool (its -rerank.cache flag).
func saveGob(path string, v any) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return gob.NewEncoder(f).Encode(v)
}

func loadGob(path string, v any) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return gob.NewDecoder(f).Decode(v)
}
