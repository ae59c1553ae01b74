package relevance

import (
	"math"
	"strings"
)

// pathMatches is semble's path_matches: equal, or either path ends with
// "/" and the other.
func pathMatches(file, target string) bool {
	f := strings.ReplaceAll(file, `\`, "/")
	t := strings.ReplaceAll(target, `\`, "/")
	return f == t || strings.HasSuffix(f, "/"+t) || strings.HasSuffix(t, "/"+f)
}

// covers is semble's target_matches_location: the path matches and, for a
// span, the lines overlap.
func covers(path string, start, end int, t Target) bool {
	if !pathMatches(path, t.Path) {
		return false
	}
	return !t.HasSpan() || !(end < t.StartLine || start > t.EndLine)
}

// Span is where a hit or a chunk lies, its path relative to the
// repository (benchmark_root included).
type Span struct {
	Path               string
	StartLine, EndLine int
}

// targetRank is the 1-based rank of the first hit covering t, 0 for none.
func targetRank(hits []Span, t Target) int {
	for i, h := range hits {
		if covers(h.Path, h.StartLine, h.EndLine, t) {
			return i + 1
		}
	}
	return 0
}

func dcg(rel []int) float64 {
	s := 0.0
	for i, r := range rel {
		s += float64(r) / math.Log2(float64(i+2))
	}
	return s
}

// ndcgAt is semble's ndcg_at_k: ranks are 1-based ranks of covered
// targets (two targets at one rank count once), nRelevant the targets the
// index holds.
func ndcgAt(ranks []int, nRelevant, k int) float64 {
	if nRelevant == 0 {
		return 0
	}
	rel := make([]int, k)
	for _, r := range ranks {
		if r >= 1 && r <= k {
			rel[r-1] = 1
		}
	}
	ideal := make([]int, min(k, nRelevant))
	for i := range ideal {
		ideal[i] = 1
	}
	if d := dcg(ideal); d > 0 {
		return dcg(rel) / d
	}
	return 0
}

// QueryScore is how one ranking did on one task.
type QueryScore struct {
	NDCG10, NDCG5 float64
	// FileHit1 and FileHit3: a relevant (not secondary) target's file is
	// the path of the first hit, or of one of the first three.
	FileHit1, FileHit3 bool
	// Ranks of the targets (all: relevant then secondary), 0 where no hit
	// of the ten covers it; Present, whether some chunk of the index does.
	Ranks   []int
	Present []bool
}

// scoreTask scores the ten best hits of a task. present[i] says whether
// the index covers target i of t.All().
func scoreTask(t Task, hits []Span, present []bool) QueryScore {
	all := t.All()
	if len(hits) > 10 {
		hits = hits[:10]
	}
	s := QueryScore{Ranks: make([]int, len(all)), Present: present}
	var ranks []int
	n := 0
	for i, tg := range all {
		if present[i] {
			n++
		}
		if r := targetRank(hits, tg); r > 0 {
			s.Ranks[i] = r
			ranks = append(ranks, r)
		}
	}
	s.NDCG10 = ndcgAt(ranks, n, 10)
	s.NDCG5 = ndcgAt(ranks, n, 5)
	for i, h := range hits[:min(3, len(hits))] {
		for _, tg := range t.Relevant {
			if pathMatches(h.Path, tg.Path) {
				s.FileHit3 = true
				s.FileHit1 = s.FileHit1 || i == 0
			}
		}
	}
	return s
}

// presentTargets says, for each target of t.All(), whether some chunk
// covers it.
func presentTargets(t Task, chunks []Span) []bool {
	all := t.All()
	out := make([]bool, len(all))
	for i, tg := range all {
		for _, c := range chunks {
			if covers(c.Path, c.StartLine, c.EndLine, tg) {
				out[i] = true
				break
			}
		}
	}
	return out
}
