package search

import (
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/bcindex/bcindex/chunk/vocab"
	"github.com/bcindex/bcindex/lexical"
	"github.com/bcindex/bcindex/query"
)

// fused is a row with its final score.
type fused struct {
	seg, row int
	score    float64
	copies   [][2]int // (segment, row) of the same chunk text elsewhere, collapsed into this hit
}

// fuse merges arm rankings, then applies code-aware adjustments. Every mode
// goes through here, so one arm alone is ranked by the same rules as the
// hybrid: fuseScores, which the cluster's ranking shares (FuseLists), then
// the hybrid's second stage and the last stage (arrange.go).
func (v *view) fuse(q *query.Query, arms []arm, convex bool) []fused {
	out := v.fusion.fuseScores(q, arms, convex, func(k [2]int) rowInfo {
		row := v.snap.Segments[k[0]].Row(k[1])
		return rowInfo{kind: row.Kind, path: v.pathOf(k[0], k[1]), parent: row.Parent}
	})
	// Ties broken by content, not by where the index put the rows.
	sort.SliceStable(out, func(i, j int) bool { return v.fusedBefore(out[i], out[j]) })
	if convex && len(arms) > 1 && v.fusion.convex {
		out = v.rerank(q, arms, out)
	}
	return v.arrange(q, out)
}

// rowInfo is what fusion reads of a candidate row: its kind, its path and
// the row of the definition it lies in, in the same segment (-1: none).
type rowInfo struct {
	kind, path string
	parent     int
}

// fuseScores scores the arms' candidates, best first: a hybrid query
// (convex) fuses the arms' normalised scores (convex.go) and drops what too
// little evidence supports; one arm alone, and similar's arms, fuse by
// weighted RRF; then a container whose member matched, a chunk's kind and
// its path weigh each score (chunkPrior). info describes a candidate.
func (f fusionConfig) fuseScores(q *query.Query, arms []arm, convex bool, info func(k [2]int) rowInfo) []fused {
	var scores, boost map[[2]int]float64
	if convex && len(arms) > 1 && f.convex {
		var evidence map[[2]int]float64
		scores, boost, evidence = f.convexScores(arms)
		// A row holding a word of the query (a text arm candidate) stays:
		// the hybrid never answers less than its text arm would.
		worded := map[[2]int]bool{}
		for _, a := range arms {
			if a.name == ModeText {
				for _, c := range a.cands {
					worded[[2]int{c.seg, c.row}] = true
				}
			}
		}
		for k := range scores {
			// Too little evidence from every arm: no hit (see noHitFloor).
			if evidence[k] < f.noHitFloor && !worded[k] {
				delete(scores, k)
			}
		}
	} else {
		scores, boost = f.rrfScores(arms)
	}
	// A class (or struct, module...) whose member also matched reads as its
	// header: the member is the more specific answer.
	parents := map[[2]int]bool{}
	rows := make(map[[2]int]rowInfo, len(scores))
	for k := range scores {
		row := info(k)
		rows[k] = row
		if row.parent >= 0 {
			parents[[2]int{k[0], row.parent}] = true
		}
	}
	out := make([]fused, 0, len(scores))
	for k, sc := range scores {
		row := rows[k]
		mult := 1.0
		if b, ok := boost[k]; ok {
			mult *= b
		}
		if parents[k] && isContainer(row.kind) {
			mult *= 0.8
		}
		mult *= f.chunkPrior(row.kind, row.path, q)
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
	return out
}

// arm is one ranking handed to fusion.
type arm struct {
	name   string
	weight float64
	cands  []cand
	top    textTop // text arm: its top row
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
		for r := seg.Row(owner); r.Kind == vocab.KindBlock && r.Parent >= 0; r = seg.Row(owner) {
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
	if b, ok := v.blobAt(seg, row); ok {
		return b.paths[0]
	}
	return ""
}

// pathMatchesQuery reports whether a query token names the file or its directory.
func pathMatchesQuery(p string, qt []string) bool {
	if len(qt) == 0 || p == "" {
		return false
	}
	pt := lexical.Tokens(strings.TrimSuffix(p, path.Ext(p)))
	for _, t := range qt {
		if len(t) > 2 && slices.Contains(pt, t) {
			return true
		}
	}
	return false
}

// isContainer reports whether a chunk kind holds other definitions.
func isContainer(kind string) bool {
	switch kind {
	case vocab.KindClass, vocab.KindStruct, vocab.KindInterface, vocab.KindTrait, vocab.KindImpl, vocab.KindModule, vocab.KindEnum:
		return true
	}
	return false
}

// isType reports whether a chunk kind declares a type or a constant
// rather than code that runs.
func isType(kind string) bool {
	switch kind {
	case vocab.KindClass, vocab.KindStruct, vocab.KindInterface, vocab.KindTrait, vocab.KindImpl, vocab.KindModule, vocab.KindEnum, vocab.KindType, vocab.KindConst:
		return true
	}
	return false
}

// rrfScores fuses arm rankings by weighted reciprocal rank; it ranks one
// arm alone (and the hybrid when convex is off).
func (f fusionConfig) rrfScores(arms []arm) (map[[2]int]float64, map[[2]int]float64) {
	scores := map[[2]int]float64{}
	boost := map[[2]int]float64{}
	rrfK := f.k
	if len(arms) == 1 {
		rrfK = f.singleK
	}
	for _, a := range arms {
		top := 0.0
		if len(a.cands) > 0 {
			top = a.cands[0].score
		}
		for rank, c := range a.cands {
			k := [2]int{c.seg, c.row}
			scores[k] += a.weight / (rrfK + float64(rank+1))
			if a.name == ModeText && rank == 0 && len(a.cands) > 1 && top > 0 && a.top.coverage >= f.coverageFloor {
				// A BM25 winner far ahead of the runner-up (the query's
				// words are in that chunk, e.g. in its doc comment) is
				// trusted beyond its rank.
				margin := (top - a.cands[1].score) / top
				scores[k] += f.textConfidence * margin
			}
			if a.name == ModeSymbol {
				exactBoost(boost, k, c.score)
			}
		}
	}
	return scores, boost
}

// exactBoost records the multiplier of a symbol-arm match whose name is the
// query: as typed (x3) or but for case and separators (x1.5), so ParseQuery
// beats parseQuery for "ParseQuery".
func exactBoost(boost map[[2]int]float64, k [2]int, score float64) {
	switch {
	case score >= symbolExactCase:
		boost[k] = 3
	case score >= symbolExact:
		boost[k] = 1.5
	}
}
