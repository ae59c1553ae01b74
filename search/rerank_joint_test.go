package search

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"
)

// The second stage is trained on two suites at once: the quality suite's
// dev half (a query answered by one definition, scored by its reciprocal
// rank) and the dev code-search suite (bench/suites/dev: files and spans
// as targets, scored by NDCG@10 as semble's benchmark does). The two
// disagree about a second chunk of a file already shown, which the
// code-search suite never counts and the quality suite often needs; the
// distinct-file decay after the second stage is chosen on both.

// devSuiteSet is the set name of the code-search suite's queries.
const devSuiteSet = "dev-suite"

// devSuitePools collects the dev suite's pools; the external test package
// sets it (devsuite_pools_test.go), nil when it cannot run.
var devSuitePools func(testing.TB) []poolQuery

// rankPool orders a pool's rows by score as search does: collapsed (one
// row per definition and per text), then each file's later rows decayed
// (decay 0 or 1: none), and returns the first k rows.
func rankPool(rows []poolRow, score func(*poolRow) float64, decay decaySetting, k int) []int {
	idx := make([]int, len(rows))
	s := make([]float64, len(rows))
	for i := range rows {
		idx[i], s[i] = i, score(&rows[i])
	}
	sort.SliceStable(idx, func(a, b int) bool { return s[idx[a]] > s[idx[b]] })
	seen := map[[2]int]bool{}
	text := map[[16]byte]bool{}
	var col []int
	for _, i := range idx {
		r := &rows[i]
		if seen[r.Owner] || r.Indexed && text[r.Hash] {
			continue
		}
		seen[r.Owner] = true
		if r.Indexed {
			text[r.Hash] = true
		}
		col = append(col, i)
	}
	if decay.d <= 0 || decay.d >= 1 {
		return col[:min(k, len(col))]
	}
	// The greedy pick of distinctFiles.
	taken := make([]bool, len(col))
	count := map[[2]int]int{}
	var out []int
	for len(out) < k && len(out) < len(col) {
		bi, bs := -1, 0.0
		for j, i := range col {
			if taken[j] {
				continue
			}
			v := s[i] * math.Pow(decay.d, float64(max(0, count[rows[i].File]-decay.free)))
			if bi < 0 || v > bs {
				bi, bs = j, v
			}
		}
		taken[bi] = true
		count[rows[col[bi]].File]++
		out = append(out, col[bi])
	}
	return out
}

// decaySetting is a distinct-file decay: a file's rows after its first
// free+1 are decayed by d each.
type decaySetting struct {
	d    float64
	free int
}

func (d decaySetting) String() string { return fmt.Sprintf("%.2f/%d", d.d, d.free) }

// simScore is a query's score when its pool is ordered by score: the
// reciprocal rank of its answer within 10, or for a code-search suite's
// query NDCG@10 over its targets.
func simScore(q *poolQuery, score func(*poolRow) float64, decay decaySetting) float64 {
	top := rankPool(q.Rows, score, decay, 10)
	if q.Set != devSuiteSet {
		for rank, i := range top {
			if q.Rows[i].Pos {
				return 1 / float64(rank+1)
			}
		}
		return 0
	}
	if q.NTargets == 0 {
		return 0
	}
	covered := map[int]bool{}
	dcg := 0.0
	for rank, i := range top {
		gain := false
		for _, t := range q.Rows[i].Covers {
			if !covered[t] {
				covered[t] = true
				gain = true
			}
		}
		if gain {
			dcg += 1 / math.Log2(float64(rank+2))
		}
	}
	ideal := 0.0
	for r := range min(10, q.NTargets) {
		ideal += 1 / math.Log2(float64(r+2))
	}
	return dcg / ideal
}

// foldOf assigns a query to one of folds cross-validation folds: a
// quality-suite package, or a dev-suite repository, is held out whole.
func foldOf(pools []poolQuery, folds int) []int {
	names := map[string]int{}
	var order []string
	for _, q := range pools {
		k := q.Set
		if k != devSuiteSet {
			k = "quality"
		}
		k += "/" + q.Pkg
		if _, ok := names[k]; !ok {
			names[k] = 0
			order = append(order, k)
		}
	}
	sort.Strings(order)
	nq, nd := 0, 0
	for _, k := range order {
		if strings.HasPrefix(k, devSuiteSet+"/") {
			names[k] = nd % folds
			nd++
		} else {
			names[k] = nq % folds
			nq++
		}
	}
	out := make([]int, len(pools))
	for i, q := range pools {
		k := q.Set
		if k != devSuiteSet {
			k = "quality"
		}
		out[i] = names[k+"/"+q.Pkg]
	}
	return out
}

// jointCV trains one model per fold on the others and returns each
// query's model.
func jointCV(pools []poolQuery, o fitOptions, folds int) []*rerankModel {
	fold := foldOf(pools, folds)
	models := make([]*rerankModel, folds)
	for f := range folds {
		var train []poolQuery
		for i, q := range pools {
			if fold[i] != f {
				train = append(train, q)
			}
		}
		models[f] = fit(train, o)
	}
	out := make([]*rerankModel, len(pools))
	for i := range pools {
		out[i] = models[fold[i]]
	}
	return out
}

// jointTable reports, per set, the mean score of the first stage's order
// and of each query's model, at each decay: MRR@10 for the quality suite's
// sets (a mean over packages), NDCG@10 for the dev suite (a mean over
// repositories, as the suite reports it).
func jointTable(pools []poolQuery, models []*rerankModel, decays []decaySetting) string {
	type key struct{ set, pkg string }
	var b strings.Builder
	fmt.Fprintf(&b, "%-13s %-8s", "set", "decay")
	fmt.Fprintf(&b, " first  model\n")
	for _, d := range decays {
		sums := map[key][2]float64{}
		ns := map[key]float64{}
		for i := range pools {
			q := &pools[i]
			k := key{q.Set, q.Pkg}
			s := sums[k]
			s[0] += simScore(q, firstOrder, d)
			if models != nil && models[i] != nil {
				s[1] += simScore(q, modelOrder(models[i]), d)
			}
			sums[k] = s
			ns[k]++
		}
		per := map[string][3]float64{}
		for k, s := range sums {
			p := per[k.set]
			p[0] += s[0] / ns[k]
			p[1] += s[1] / ns[k]
			p[2]++
			per[k.set] = p
		}
		var sets []string
		for s := range per {
			sets = append(sets, s)
		}
		sort.Strings(sets)
		for _, s := range sets {
			p := per[s]
			fmt.Fprintf(&b, "%-13s %-8s %.3f  %.3f\n", s, d, p[0]/p[2], p[1]/p[2])
		}
	}
	return b.String()
}

// poolRecall reports, per set, the share of queries whose pool holds an
// answer (for the code-search suite: the mean share of its targets the
// pool covers).
func poolRecall(pools []poolQuery) string {
	sums, ns := map[string]float64{}, map[string]float64{}
	for _, q := range pools {
		ns[q.Set]++
		if q.Set != devSuiteSet {
			if q.answers() > 0 {
				sums[q.Set]++
			}
			continue
		}
		covered := map[int]bool{}
		for _, r := range q.Rows {
			for _, t := range r.Covers {
				covered[t] = true
			}
		}
		if q.NTargets > 0 {
			sums[q.Set] += float64(len(covered)) / float64(q.NTargets)
		}
	}
	var b strings.Builder
	var sets []string
	for s := range ns {
		sets = append(sets, s)
	}
	sort.Strings(sets)
	for _, s := range sets {
		fmt.Fprintf(&b, "%-13s %4.0f queries, recall %.3f\n", s, ns[s], sums[s]/ns[s])
	}
	return b.String()
}
