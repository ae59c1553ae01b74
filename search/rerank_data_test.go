package search

import (
	"encoding/gob"
	"os"
	"testing"

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
	File    [2]int // segment, first row of its blob: distinct files are counted by it
	// Covers lists the targets a row covers (a code-search suite's query:
	// files and spans, NTargets of them present in the index).
	Covers []int
}

// poolQuery is one query's pool and the reciprocal ranks (0 beyond 10)
// of the answer in each arm alone and in the first stage.
type poolQuery struct {
	Pkg, Lang, Set string
	Rows           []poolRow
	RR             map[string]float64 // text, vector, first
	// NTargets, for a code-search suite's query (Set devSuiteSet), is how
	// many of its targets the index covers: scored by NDCG@10.
	NTargets int
	Query    string
}

// asked is a query with the test of a hit that answers it.
type asked struct {
	query   string
	answers func(Hit) bool
}

// docAsked are doc-comment or name queries as asked.
func docAsked(qs []evalQuery) []asked {
	out := make([]asked, len(qs))
	for i, q := range qs {
		out[i] = asked{q.Query, func(h Hit) bool {
			return h.Path == q.Path && (h.Name == q.Name || h.Kind == "block" && h.Parent == q.Name)
		}}
	}
	return out
}

// rowHit is the part of a row's Hit that answers read.
func (v *view) rowHit(seg, r int) Hit {
	s := v.snap.Segments[seg]
	row := s.Row(r)
	h := Hit{Path: v.pathOf(seg, r), Name: row.Name, Kind: row.Kind, StartLine: row.StartLine, EndLine: row.EndLine}
	for p := row.Parent; p >= 0 && h.Parent == ""; {
		pr := s.Row(p)
		if pr.Kind != "file" && pr.Name != "" {
			h.Parent = pr.Name
		}
		p = pr.Parent
	}
	return h
}

// collectPools searches each query with the first stage only, keeping its
// pool, and with each arm alone.
func collectPools(t testing.TB, repo *gitindex.Repo, qs []asked, pkg, lang, set string) []poolQuery {
	var out []poolQuery
	for _, q := range qs {
		pq := poolQuery{Pkg: pkg, Lang: lang, Set: set, RR: map[string]float64{}}
		f := defaultFusion()
		f.rerank = nil
		f.collect = func(v *view, _ string, _ []arm, _ []fused, pool []rerankCand) {
			for _, c := range pool {
				seg := v.snap.Segments[c.key[0]]
				row := seg.Row(c.key[1])
				owner := c.key[1]
				for r := seg.Row(owner); r.Kind == "block" && r.Parent >= 0; r = seg.Row(owner) {
					owner = r.Parent
				}
				pq.Rows = append(pq.Rows, poolRow{X: c.x, Owner: [2]int{c.key[0], owner}, Hash: row.Hash, Indexed: row.Indexed,
					File: [2]int{c.key[0], seg.BlobFirst(c.key[1])},
					Pos:  q.answers(v.rowHit(c.key[0], c.key[1]))})
			}
		}
		for _, mode := range []string{ModeHybrid, ModeText, ModeVector} {
			rank := firstAnswer(searchTop10(t, repo, q.query, Options{Mode: mode, ranking: &f}), q.answers)
			if mode == ModeHybrid {
				mode = "first"
			}
			if rank >= 0 {
				pq.RR[mode] = 1 / float64(rank+1)
			}
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
