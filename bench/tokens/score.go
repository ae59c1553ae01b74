package tokens

import (
	"sort"

	"github.com/bcindex/bcindex/bench/relevance"
)

// Budgets are the token budgets recall is reported at.
var Budgets = []int{500, 1000, 2000, 4000}

// missCost is what a query whose results cover no target costs: semble's
// cap, as if the agent read on until it gave up.
const missCost = 32_000

// tokens counts text as characters / 4.
func tokens(chars int) float64 { return float64(chars) / 4 }

// point is the reading after one more unit: tokens so far, targets
// covered so far.
type point struct {
	Tokens  float64
	Covered int
}

// curve reads units in order.
func curve(units []unit, targets []relevance.Target) []point {
	covered := make([]bool, len(targets))
	n, sum := 0, 0.0
	out := []point{{}}
	for _, u := range units {
		sum += tokens(u.Chars)
		for i, t := range targets {
			hit := t.Covers(u.Path, u.Start, u.End)
			for _, a := range u.Also {
				hit = hit || t.Covers(u.Path, a[0], a[1])
			}
			if !covered[i] && hit {
				covered[i] = true
				n++
			}
		}
		out = append(out, point{sum, n})
	}
	return out
}

// firstHit is the tokens read when the first target is covered; ok is
// false when none is.
func firstHit(c []point) (float64, bool) {
	for _, p := range c {
		if p.Covered > 0 {
			return p.Tokens, true
		}
	}
	return 0, false
}

// recallAt is the share of the n targets covered within budget.
func recallAt(c []point, budget, n int) float64 {
	covered := 0
	for _, p := range c {
		if p.Tokens > float64(budget) {
			break
		}
		covered = p.Covered
	}
	return float64(covered) / float64(n)
}

// Metrics sum up one method over a set of queries.
type Metrics struct {
	Queries int `json:"queries"`
	// Expected is the mean tokens to the first covering result, a miss
	// counting missCost; Found the share of queries with one; MedianFound
	// the median tokens to it where there is one.
	Expected    float64 `json:"expected_tokens"`
	Found       float64 `json:"found"`
	MedianFound float64 `json:"median_tokens_found"`
	// Recall[i] is the mean share of targets covered within Budgets[i].
	Recall []float64 `json:"recall"`
	// Answer is the median tokens of the whole answer (all its units).
	Answer float64 `json:"median_answer_tokens"`
}

// sample is one query's reading of one method.
type sample struct {
	curve   []point
	targets int
}

func summarise(ss []sample) Metrics {
	m := Metrics{Queries: len(ss), Recall: make([]float64, len(Budgets))}
	var found, answers []float64
	for _, s := range ss {
		if t, ok := firstHit(s.curve); ok {
			m.Expected += t
			found = append(found, t)
		} else {
			m.Expected += missCost
		}
		for i, b := range Budgets {
			m.Recall[i] += recallAt(s.curve, b, s.targets)
		}
		answers = append(answers, s.curve[len(s.curve)-1].Tokens)
	}
	if len(ss) == 0 {
		return m
	}
	n := float64(len(ss))
	m.Expected /= n
	m.Found = float64(len(found)) / n
	for i := range m.Recall {
		m.Recall[i] /= n
	}
	m.MedianFound = median(found)
	m.Answer = median(answers)
	return m
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
