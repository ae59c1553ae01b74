package search

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"sync"

	"github.com/bcindex/bcindex/query"
)

// A learned second stage can reorder the hybrid's best candidates; it is
// off by default (fusionConfig.rerank): on the dev code-search suite the
// rules of arrange.go ranked better without it. The convex
// fusion (convex.go) weighs each arm the same for every query; which arm
// knows better depends on the query and the candidate (a query in words
// over code without docs: most often the vector arm; a doc comment's
// words: BM25). A linear model with a few boosted trees over the features
// of rerank_features.go, trained listwise on the quality suite's dev half
// only (doc-comment queries and the questions people wrote), scores the
// pool; rerank_train_test.go trains it and writes rerank_model.json:
//
//	go test ./search -run TestRerankTrain -rerank.train -update -v
//
// It cross-validates by package first (train on six dev packages, score
// the seventh), which is how its settings were chosen.

// Pool sizes: the first stage's best poolBase candidates, and the best
// poolArm of the text and vector arms (and poolSym of the symbol arm)
// wherever the first stage put them.
const (
	poolBase = 100
	poolArm  = 30
	poolSym  = 10
)

// The models, for the tuning tools: one trained for chunks, one for
// files (with filesFirstStage), each by TestRerankTrain.
var (
	//go:embed rerank_model.json
	rerankModelJSON []byte
	//go:embed rerank_files_model.json
	rerankFilesModelJSON []byte
)

// rerankModel is a linear scorer over standardised features.
type rerankModel struct {
	Features []string  `json:"features"`
	Mean     []float64 `json:"mean"`
	Scale    []float64 `json:"scale"` // 1/standard deviation
	Weights  []float64 `json:"weights"`
	// Trees, added to the linear score, hold what a weighted sum cannot:
	// which arm to trust in which regime (a doc comment's words matched
	// word for word; a question in words over code without docs).
	Trees [][]treeNode `json:"trees,omitempty"`
	Note  string       `json:"note,omitempty"` // how it was trained
}

// treeNode is a node of a regression tree: a leaf when F < 0, else x[F]
// <= T goes to node L, the rest to R.
type treeNode struct {
	F int     `json:"f"`
	T float64 `json:"t,omitempty"`
	L int     `json:"l,omitempty"`
	R int     `json:"r,omitempty"`
	V float64 `json:"v,omitempty"`
}

// builtinRerank returns the shipped model, or an error when the file does
// not fit this build's features (a test then fails: see
// TestRerankModelLoads). Both models are parsed on first use, not in
// package initialisation, which every command would pay for.
var (
	builtinRerank      = sync.OnceValues(func() (*rerankModel, error) { return parseRerank(rerankModelJSON) })
	builtinFilesRerank = sync.OnceValues(func() (*rerankModel, error) { return parseRerank(rerankFilesModelJSON) })
)

// shipped is a shipped model, nil (no second stage) when it does not load.
func shipped(load func() (*rerankModel, error)) *rerankModel {
	m, _ := load()
	return m
}

func parseRerank(b []byte) (*rerankModel, error) {
	var m rerankModel
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("read the rerank model: %w", err)
	}
	// A model may read the first of this build's features only.
	n := len(m.Features)
	if n == 0 || n > nFeatures || !slices.Equal(m.Features, rerankFeatureNames[:n]) || len(m.Mean) != n || len(m.Scale) != n || len(m.Weights) != n {
		return nil, fmt.Errorf("read the rerank model: its features are not this build's (regenerate it: go test ./search -run TestRerankTrain -rerank.train)")
	}
	for _, t := range m.Trees {
		if len(t) == 0 {
			return nil, fmt.Errorf("read the rerank model: an empty tree")
		}
		for i, nd := range t {
			// Children follow their parent, so a walk ends.
			if nd.F >= n || nd.F >= 0 && (nd.L <= i || nd.L >= len(t) || nd.R <= i || nd.R >= len(t)) {
				return nil, fmt.Errorf("read the rerank model: node %d of a tree points outside it", i)
			}
		}
	}
	return &m, nil
}

// score is the model's value for one candidate.
func (m *rerankModel) score(x *[nFeatures]float64) float64 {
	s := 0.0
	for i, w := range m.Weights {
		s += w * (x[i] - m.Mean[i]) * m.Scale[i]
	}
	for _, t := range m.Trees {
		s += treeValue(t, x)
	}
	return s
}

func treeValue(t []treeNode, x *[nFeatures]float64) float64 {
	n := 0
	for t[n].F >= 0 {
		if x[t[n].F] <= t[n].T {
			n = t[n].L
		} else {
			n = t[n].R
		}
	}
	return t[n].V
}

// rerank reorders the pool of out (sorted by the first stage) by the
// model; the rest keeps its order below the pool. collect, when set,
// receives the query, its arms, the first stage's order and the pool with
// its features (the training tool and the benchmark).
func (v *view) rerank(pq *query.Query, arms []arm, out []fused) []fused {
	m, collect := v.fusion.rerank, v.fusion.collect
	// One word is a name to look up (Ruby's empty?, self.call, <=>),
	// which the first stage finds (exact-name recall@1 0.999 on the dev
	// half): nothing to learn there.
	if (m == nil && collect == nil) || len(out) == 0 || len(pq.Words) < 2 {
		return out
	}
	at := make(map[[2]int]int, len(out))
	for i, f := range out {
		at[[2]int{f.seg, f.row}] = i
	}
	inPool := make([]bool, len(out))
	for i := range min(poolBase, len(out)) {
		inPool[i] = true
	}
	for _, a := range arms {
		n := poolArm
		if a.name == ModeSymbol {
			n = poolSym
		}
		for _, c := range a.cands[:min(n, len(a.cands))] {
			if i, ok := at[[2]int{c.seg, c.row}]; ok {
				inPool[i] = true
			}
		}
	}
	q, av := shapeOf(pq, arms), viewArms(arms)
	// The file's features, for a model that reads them (or the training
	// tool): the file's own BM25 and its candidates in the pool.
	files := collect != nil || m != nil && len(m.Features) > fFileText
	q.files = files
	if files {
		v.fileBM25()
	}
	pool := make([]rerankCand, 0, poolBase+2*poolArm+poolSym+v.fusion.poolFiles)
	for i, f := range out {
		if !inPool[i] {
			continue
		}
		c := rerankCand{key: [2]int{f.seg, f.row}, base: f.score}
		v.features(&c, i, out[0].score, q, av)
		pool = append(pool, c)
	}
	// The best files as whole documents bring their best chunk when no
	// arm put one of their chunks in the pool.
	if files {
		for _, k := range v.topFiles(pool, v.fusion.poolFiles) {
			c := rerankCand{key: k}
			rank := len(out)
			if i, ok := at[k]; ok {
				c.base, rank = out[i].score, i
			}
			v.features(&c, rank, out[0].score, q, av)
			pool = append(pool, c)
		}
		v.fileFeatures(pool)
	}
	if collect != nil {
		collect(v, pq.Raw, arms, out, pool)
	}
	if m == nil {
		return out
	}
	ranked := make([]fused, 0, len(out))
	low := math.Inf(1)
	for _, c := range pool {
		s := 1 / (1 + math.Exp(-m.score(&c.x)))
		low = min(low, s)
		ranked = append(ranked, fused{seg: c.key[0], row: c.key[1], score: s})
	}
	sort.SliceStable(ranked, func(i, j int) bool { return v.fusedBefore(ranked[i], ranked[j]) })
	added := make(map[[2]int]bool, len(pool))
	for _, c := range pool {
		added[c.key] = true
	}
	// Below the pool, in the first stage's order.
	for _, f := range out {
		if !added[[2]int{f.seg, f.row}] {
			f.score = low * 0.5 * f.score / out[0].score
			ranked = append(ranked, f)
		}
	}
	return ranked
}

// topFiles returns, for the n files of the best whole-file BM25 that have
// no candidate in pool, the row of each with the best BM25 score.
func (v *view) topFiles(pool []rerankCand, n int) [][2]int {
	if len(v.fileScore) == 0 || n <= 0 {
		return nil
	}
	have := make(map[[2]int]bool, len(pool))
	for _, c := range pool {
		have[[2]int{c.key[0], v.rowBlobs().firstOf(c.key[0], c.key[1])}] = true
	}
	type fs struct {
		f [2]int
		s float64
	}
	better := func(a, b fs) bool {
		if a.s != b.s {
			return a.s > b.s
		}
		if ka, kb := v.rowKey(a.f[0], a.f[1]), v.rowKey(b.f[0], b.f[1]); ka != kb {
			return ka < kb
		}
		if a.f[0] != b.f[0] {
			return a.f[0] < b.f[0]
		}
		return a.f[1] < b.f[1]
	}
	// The best n, in order, kept by insertion: most files score below
	// the n-th and cost one comparison.
	best := make([]fs, 0, n+1)
	for _, s := range v.fileScore {
		x := fs{[2]int{int(s.seg), int(s.first)}, s.score}
		if len(best) == n && !better(x, best[n-1]) {
			continue
		}
		i := len(best)
		for i > 0 && better(x, best[i-1]) {
			i--
		}
		best = slices.Insert(best, i, x)
		if len(best) > n {
			best = best[:n]
		}
	}
	var out [][2]int
	for _, b := range best {
		if r, ok := v.fileBestOf(b.f); ok && !have[b.f] {
			out = append(out, [2]int{b.f[0], r})
		}
	}
	return out
}
