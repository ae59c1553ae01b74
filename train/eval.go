package train

import (
	"context"
	"fmt"
	"io"
	"math"
	"sort"

	"github.com/bcindex/bcindex/embed"
)

// rrfK is the usual reciprocal-rank-fusion constant.
const rrfK = 60

// evalDepth is how deep each arm ranks before fusion.
const evalDepth = 100

// Result holds the summed metrics of one evaluation set.
type Result struct {
	Name, Lang    string
	Queries, Docs int
	MRR, Recall   [3]float64 // BM25, vector, fused; sums over queries
}

// Evaluate ranks every set's documents for each of its queries with BM25,
// the embedder, and their reciprocal-rank fusion.
func Evaluate(ctx context.Context, sets []EvalSet, e embed.Embedder, maxQ int) ([]Result, error) {
	var out []Result
	for _, s := range sets {
		qs, targets := s.Queries, s.Targets
		if maxQ > 0 && len(qs) > maxQ {
			// An evenly spaced subset: deterministic and spread over the package.
			var q2 []string
			var t2 []int
			for i := 0; i < maxQ; i++ {
				j := i * len(qs) / maxQ
				q2, t2 = append(q2, qs[j]), append(t2, targets[j])
			}
			qs, targets = q2, t2
		}
		r := Result{Name: s.Name, Lang: s.Lang, Queries: len(qs), Docs: len(s.Docs)}
		bm := newBM25(s.Docs)
		dv, err := e.Embed(ctx, s.Docs, embed.RoleDocument)
		if err != nil {
			return nil, fmt.Errorf("eval %s: %w", s.Name, err)
		}
		qv, err := e.Embed(ctx, qs, embed.RoleQuery)
		if err != nil {
			return nil, fmt.Errorf("eval %s: %w", s.Name, err)
		}
		for i, q := range qs {
			lex := bm.search(embed.Tokens(q), evalDepth)
			vec := vectorSearch(qv[i], dv, evalDepth)
			fused := rrf(lex, vec)
			for a, ranking := range [][]int{lex, vec, fused} {
				if rank := rankOf(ranking, targets[i]); rank > 0 && rank <= 10 {
					r.MRR[a] += 1 / float64(rank)
					r.Recall[a]++
				}
			}
		}
		out = append(out, r)
	}
	return out, nil
}

func rankOf(ranking []int, target int) int {
	for i, d := range ranking {
		if d == target {
			return i + 1
		}
	}
	return 0
}

func vectorSearch(q []float32, docs [][]float32, k int) []int {
	scores := make([]float32, len(docs))
	for i, d := range docs {
		scores[i] = dot(q, d)
	}
	return topK(scores, k)
}

// topK returns the indexes of the k highest scores, best first; ties go to
// the lower index. Zero scores are not ranked.
func topK(scores []float32, k int) []int {
	idx := make([]int, 0, len(scores))
	for i, s := range scores {
		if s > 0 {
			idx = append(idx, i)
		}
	}
	sort.SliceStable(idx, func(a, b int) bool { return scores[idx[a]] > scores[idx[b]] })
	if len(idx) > k {
		idx = idx[:k]
	}
	return idx
}

// rrf fuses rankings by reciprocal rank.
func rrf(rankings ...[]int) []int {
	score := map[int]float64{}
	for _, r := range rankings {
		for i, d := range r {
			score[d] += 1 / float64(rrfK+i+1)
		}
	}
	idx := make([]int, 0, len(score))
	for d := range score {
		idx = append(idx, d)
	}
	sort.Slice(idx, func(a, b int) bool {
		if score[idx[a]] != score[idx[b]] {
			return score[idx[a]] > score[idx[b]]
		}
		return idx[a] < idx[b]
	})
	return idx
}

// bm25 is a small in-memory BM25 (k1 1.2, b 0.75) over embed.Tokens, standing
// in for the project's lexical index in this evaluation.
type bm25 struct {
	post   map[string][]posting
	docLen []float64
	avg    float64
}

type posting struct{ doc, tf int }

func newBM25(docs []string) *bm25 {
	b := &bm25{post: map[string][]posting{}, docLen: make([]float64, len(docs))}
	tf := map[string]int{}
	var total float64
	for i, d := range docs {
		clear(tf)
		toks := embed.Tokens(d)
		for _, t := range toks {
			tf[t]++
		}
		for t, n := range tf {
			b.post[t] = append(b.post[t], posting{i, n})
		}
		b.docLen[i] = float64(len(toks))
		total += float64(len(toks))
	}
	b.avg = total / math.Max(float64(len(docs)), 1)
	return b
}

func (b *bm25) search(q []string, k int) []int {
	const k1, bb = 1.2, 0.75
	n := float64(len(b.docLen))
	scores := make([]float32, len(b.docLen))
	seen := map[string]bool{}
	for _, t := range q {
		if seen[t] {
			continue
		}
		seen[t] = true
		ps := b.post[t]
		if len(ps) == 0 {
			continue
		}
		idf := math.Log(1 + (n-float64(len(ps))+0.5)/(float64(len(ps))+0.5))
		for _, p := range ps {
			f := float64(p.tf)
			scores[p.doc] += float32(idf * f * (k1 + 1) / (f + k1*(1-bb+bb*b.docLen[p.doc]/b.avg)))
		}
	}
	return topK(scores, k)
}

// PrintResults writes the evaluation table: per set, the macro average over
// sets and the micro average over queries of MRR@10 and recall@10 per arm.
func PrintResults(w io.Writer, title string, res []Result) {
	fmt.Fprintf(w, "== %s\n", title)
	fmt.Fprintf(w, "%-34s %-10s %6s %7s | %-21s | %-21s | %-21s\n", "set", "lang", "q", "docs", "BM25 MRR@10 / R@10", "vector MRR@10 / R@10", "fused MRR@10 / R@10")
	var avg, micro [3][2]float64
	var nq float64
	for _, r := range res {
		nq += float64(r.Queries)
		for a := 0; a < 3; a++ {
			micro[a][0] += r.MRR[a]
			micro[a][1] += r.Recall[a]
		}
		q := float64(max(r.Queries, 1))
		fmt.Fprintf(w, "%-34s %-10s %6d %7d |", r.Name, r.Lang, r.Queries, r.Docs)
		for a := 0; a < 3; a++ {
			fmt.Fprintf(w, " %.3f / %.3f         |", r.MRR[a]/q, r.Recall[a]/q)
			avg[a][0] += r.MRR[a] / q / float64(len(res))
			avg[a][1] += r.Recall[a] / q / float64(len(res))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "%-34s %-10s %6s %7s |", "macro average", "", "", "")
	for a := 0; a < 3; a++ {
		fmt.Fprintf(w, " %.3f / %.3f         |", avg[a][0], avg[a][1])
	}
	fmt.Fprintf(w, "\n%-34s %-10s %6d %7s |", "all queries (micro average)", "", int(nq), "")
	for a := 0; a < 3; a++ {
		fmt.Fprintf(w, " %.3f / %.3f         |", micro[a][0]/nq, micro[a][1]/nq)
	}
	fmt.Fprintf(w, "\nMRR@10 ratios, macro: vector/BM25 %.2f fused/BM25 %.2f; micro: vector/BM25 %.2f fused/BM25 %.2f\n",
		avg[1][0]/avg[0][0], avg[2][0]/avg[0][0], micro[1][0]/micro[0][0], micro[2][0]/micro[0][0])
}
