package search

import (
	"math"
	"path"
	"strings"

	"github.com/bcindex/bcindex/lexical"
	"github.com/bcindex/bcindex/query"
)

// The second stage's features (rerank.go): what each arm said about a
// candidate and how much of the query its name and path hold (not its
// signature: reading it decompresses the blob's details, 50 µs a row).
// Query-level values alone cannot reorder one query's candidates, so they
// enter as products with a candidate's values: how far to trust the text
// arm depends on how well its top hit matched. On the dev half's held-out
// packages, features of a chunk's kind (code, type, prose, test) and of
// its doc comment's words raised the doc-comment queries but lowered the
// questions people wrote (whose words are not a doc comment's), so the
// model leaves them to the first stage's multipliers.
var rerankFeatureNames = []string{
	"base", "base_rr",
	"text", "text_rr", "text_gap", "held",
	"vec", "vec_mm", "vec_rr", "vec_gap",
	"sym", "sym_exact",
	"name", "path", "size",
	"text*tcov", "vec*tcov", "vec_mm*(1-tcov)", "held*tterms", "text*qid", "vec*qwords",
	"name*qid", "sym*qid", "name*qwords",
}

const nFeatures = 24

// rerankCand is one candidate of the second stage: its row, the first
// stage's score and its features.
type rerankCand struct {
	key  [2]int
	base float64
	x    [nFeatures]float64
}

// queryShape is what the features read of the query itself.
type queryShape struct {
	tokens       []string // its distinct search tokens
	words        float64  // its word count over 12, at most 1
	ident        float64  // 1 for one identifier
	tcov, tterms float64  // the text arm's top hit: coverage and share of terms
}

func shapeOf(q *query.Query, arms []arm) queryShape {
	s := queryShape{tokens: q.Terms}
	s.words = math.Min(float64(len(q.Words)), 12) / 12
	if q.Shape == query.Identifier {
		s.ident = 1
	}
	for _, a := range arms {
		if a.name == ModeText {
			s.tcov, s.tterms = a.top.coverage, a.top.terms
		}
	}
	return s
}

// armView is one arm's candidates by row, with what its features need.
type armView struct {
	rank        map[[2]int]int
	cands       []cand
	scale       float64 // a text score's maximum for the query
	top, bottom float64
}

func viewArms(arms []arm) map[string]armView {
	out := map[string]armView{}
	for _, a := range arms {
		if len(a.cands) == 0 {
			continue
		}
		av := armView{rank: make(map[[2]int]int, len(a.cands)), cands: a.cands, scale: 1,
			top: a.cands[0].score, bottom: a.cands[len(a.cands)-1].score}
		for i, c := range a.cands {
			av.rank[[2]int{c.seg, c.row}] = i
		}
		if a.name == ModeText && a.top.coverage > 0 {
			av.scale = a.cands[0].score / a.top.coverage
		}
		out[a.name] = av
	}
	return out
}

// features fills c.x for one candidate, in rerankFeatureNames' order;
// baseTop is the pool's best first stage score and rank the candidate's
// place in that order.
func (v *view) features(c *rerankCand, rank int, baseTop float64, q queryShape, arms map[string]armView) {
	var base, baseRR, text, textRR, textGap, held, vec, vecMM, vecRR, vecGap, sym, symExact float64
	if baseTop > 0 {
		base = c.base / baseTop
	}
	baseRR = 1 / float64(rank+1)
	if a, ok := arms[ModeText]; ok {
		textGap = 1
		if r, ok := a.rank[c.key]; ok {
			s := a.cands[r].score
			text, textRR, held = clamp01(s/a.scale), 1/float64(r+1), a.cands[r].held
			if a.top > 0 {
				textGap = (a.top - s) / a.top
			}
		}
	}
	if a, ok := arms[ModeVector]; ok {
		// A row the arm did not return scores its last candidate's cosine.
		s := a.bottom
		if r, ok := a.rank[c.key]; ok {
			s, vecRR = a.cands[r].score, 1/float64(r+1)
		}
		vec, vecGap = s, a.top-s
		if a.top > a.bottom {
			vecMM = (s - a.bottom) / (a.top - a.bottom)
		}
	}
	if a, ok := arms[ModeSymbol]; ok {
		if r, ok := a.rank[c.key]; ok {
			sym = a.cands[r].score / symbolExactCase
			if a.cands[r].score >= symbolExact {
				symExact = 1
			}
		}
	}
	seg := v.snap.Segments[c.key[0]]
	row := seg.Row(c.key[1])
	p := v.pathOf(c.key[0], c.key[1])
	name := share(q.tokens, row.Name)
	c.x = [nFeatures]float64{
		base, baseRR,
		text, textRR, textGap, held,
		vec, vecMM, vecRR, vecGap,
		sym, symExact,
		name, share(q.tokens, strings.TrimSuffix(p, path.Ext(p))),
		math.Log1p(float64(seg.Lex.DocLen(c.key[1]))) / 8,
		text * q.tcov, vec * q.tcov, vecMM * (1 - q.tcov), held * q.tterms, text * q.ident, vec * q.words,
		name * q.ident, sym * q.ident, name * q.words,
	}
}

// share is the fraction of the query's tokens that text holds.
func share(q []string, text string) float64 {
	if len(q) == 0 || text == "" {
		return 0
	}
	ts := lexical.Tokens(text)
	n := 0
	for _, t := range q {
		for _, u := range ts {
			if t == u {
				n++
				break
			}
		}
	}
	return float64(n) / float64(len(q))
}
