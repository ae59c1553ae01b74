package search

import (
	"path"
	"sort"
	"strings"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/lexical"
)

// fusion holds the reciprocal-rank-fusion constant k (a hit at rank r in an
// arm contributes weight/(k+r); singleK when one arm runs alone, where k
// only sets how far the code-aware multipliers can reorder it), the arm
// weights, and textConfidence, added to the top BM25 hit times its margin
// over the second, (s1-s2)/s1, when that hit covers at least coverageFloor
// of the query (its score over the best any row could reach). They were
// tuned on the quality suite (quality_test.go, BenchmarkFusionGrid) and a
// held-out Python package (jinja2), docs kept and stripped — never on the
// packages reserved for independent evaluation.
var fusion = struct {
	k              float64
	weights        map[string]float64
	singleK        float64
	textConfidence float64
	coverageFloor  float64
}{
	// The built-in model's vector arm outranks BM25 when docs are stripped
	// (MRR@10 0.65 vs 0.28) and nearly matches it when they are kept, hence
	// its larger weight. A BM25 winner far ahead of the rest is trusted only
	// when it holds most of the query: with docs kept that is the function
	// the doc describes; with docs stripped a partial match is often wrong.
	k:              30,
	weights:        map[string]float64{ModeSymbol: 1, ModeText: 0.5, ModeVector: 2},
	singleK:        10,
	textConfidence: 0.2,
	coverageFloor:  0.4,
}

// fused is a row with its final score.
type fused struct {
	seg, row int
	score    float64
	copies   [][2]int // (segment, row) of the same chunk text elsewhere, collapsed into this hit
}

// fuse merges arm rankings with weighted RRF, then applies code-aware
// adjustments. Every mode goes through here, so one arm alone is ranked by
// the same rules as the hybrid.
func (v *view) fuse(query string, arms []arm) []fused {
	scores := map[[2]int]float64{}
	boost := map[[2]int]float64{}
	rrfK := fusion.k
	if len(arms) == 1 {
		rrfK = fusion.singleK
	}
	for _, a := range arms {
		top := 0.0
		if len(a.cands) > 0 {
			top = a.cands[0].score
		}
		for rank, c := range a.cands {
			k := [2]int{c.seg, c.row}
			scores[k] += a.weight / (rrfK + float64(rank+1))
			if a.name == ModeText && rank == 0 && len(a.cands) > 1 && top > 0 && a.coverage >= fusion.coverageFloor {
				// A BM25 winner far ahead of the runner-up (the query's
				// words are in that chunk, e.g. in its doc comment) is
				// trusted beyond its rank.
				margin := (top - a.cands[1].score) / top
				scores[k] += fusion.textConfidence * margin
			}
			if a.name == ModeSymbol && c.score >= symbolExact {
				// The name is the query: as typed (x3) or but for case and
				// separators (x1.5), so ParseQuery beats parseQuery for "ParseQuery".
				boost[k] = 1.5
				if c.score >= symbolExactCase {
					boost[k] = 3
				}
			}
		}
	}
	qt := lexical.Tokens(query)
	wantsTests := false
	for _, t := range qt {
		if t == "test" || t == "tests" || t == "spec" {
			wantsTests = true
		}
	}
	// A class (or struct, module...) whose member also matched reads as its
	// header: the member is the more specific answer.
	parents := map[[2]int]bool{}
	rows := make(map[[2]int]gitindex.Row, len(scores))
	for k := range scores {
		row := v.snap.Segments[k[0]].Row(k[1])
		rows[k] = row
		if row.Parent >= 0 {
			parents[[2]int{k[0], row.Parent}] = true
		}
	}
	out := make([]fused, 0, len(scores))
	for k, sc := range scores {
		row := rows[k]
		mult := 1.0
		if b, ok := boost[k]; ok {
			mult *= b
		}
		if parents[k] && isContainer(row.Kind) {
			mult *= 0.8
		}
		switch row.Kind {
		case "file":
			// Imports and the signatures of the file's definitions: an outline
			// that resembles every query its definitions answer better.
			mult *= 0.5
		case "window":
			mult *= 0.8 // unstructured text
		case "block":
			mult *= 0.9
		}
		p := v.pathOf(k[0], k[1])
		if !wantsTests && isTestPath(p) {
			mult *= 0.7
		}
		if pathMatchesQuery(p, qt) {
			mult *= 1.15
		}
		out = append(out, fused{seg: k[0], row: k[1], score: sc * mult})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].score != out[j].score {
			return out[i].score > out[j].score
		}
		if out[i].seg != out[j].seg {
			return out[i].seg < out[j].seg
		}
		return out[i].row < out[j].row
	})
	return v.collapse(out)
}

// arm is one ranking handed to fusion.
type arm struct {
	name     string
	weight   float64
	cands    []cand
	coverage float64 // text arm: the top row's share of the best possible BM25 score
}

// collapse keeps one result per definition: a micro chunk (block) and the
// function it lies in are the same answer, so whichever ranks first stands
// for both (a block hit names its function as parent); and one result per
// chunk text, so code copied into several files shows once, naming the
// other files in also_in.
func (v *view) collapse(in []fused) []fused {
	seen := map[[2]int]bool{}
	sameText := map[[16]byte]int{} // chunk text → index in out
	out := in[:0:0]
	for _, f := range in {
		seg := v.snap.Segments[f.seg]
		owner := f.row
		for r := seg.Row(owner); r.Kind == "block" && r.Parent >= 0; r = seg.Row(owner) {
			owner = r.Parent
		}
		k := [2]int{f.seg, owner}
		if seen[k] {
			continue
		}
		row := seg.Row(f.row)
		if i, ok := sameText[row.Hash]; ok && row.Indexed {
			out[i].copies = append(out[i].copies, [2]int{f.seg, f.row})
			continue
		}
		seen[k] = true
		if row.Indexed {
			sameText[row.Hash] = len(out)
		}
		out = append(out, f)
	}
	return out
}

func (v *view) pathOf(seg, row int) string {
	first := int(v.first[seg][row])
	if ps := v.paths[seg][first]; len(ps) > 0 {
		return ps[0]
	}
	return ""
}

func isTestPath(p string) bool {
	base := path.Base(p)
	return strings.HasSuffix(base, "_test.go") || strings.HasPrefix(base, "test_") ||
		strings.Contains(base, ".test.") || strings.Contains(base, ".spec.") ||
		strings.HasSuffix(strings.TrimSuffix(base, path.Ext(base)), "_test") ||
		strings.Contains(p, "/test/") || strings.Contains(p, "/tests/") || strings.HasPrefix(p, "test/") || strings.HasPrefix(p, "tests/") ||
		strings.Contains(p, "__tests__/") || strings.Contains(p, "testdata/")
}

// pathMatchesQuery reports whether a query token names the file or its directory.
func pathMatchesQuery(p string, qt []string) bool {
	if len(qt) == 0 || p == "" {
		return false
	}
	pt := lexical.Tokens(strings.TrimSuffix(p, path.Ext(p)))
	set := map[string]bool{}
	for _, t := range pt {
		set[t] = true
	}
	for _, t := range qt {
		if len(t) > 2 && set[t] {
			return true
		}
	}
	return false
}

// isContainer reports whether a chunk kind holds other definitions.
func isContainer(kind string) bool {
	switch kind {
	case "class", "struct", "interface", "trait", "impl", "module", "enum":
		return true
	}
	return false
}
