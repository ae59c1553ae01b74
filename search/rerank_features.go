package search

import (
	"math"
	"path"
	"strings"

	"github.com/bcindex/bcindex/lexical"
)

// The second stage's features (rerank.go): what each arm said about a
// candidate, how much of the query it holds and where, what it is, and
// the query's shape. Query-level values alone cannot reorder one query's
// candidates, so they enter as products with a candidate's values: how far
// to trust the text arm depends on how well its top hit matched.
var rerankFeatureNames = []string{
	"base", "base_rr",
	"text", "text_rr", "text_gap", "held",
	"vec", "vec_mm", "vec_rr", "vec_gap",
	"sym", "sym_exact",
	"name", "sig", "doc", "path",
	"code", "type", "value", "file", "block", "window", "prose", "size", "test",
	"text*tcov", "vec*tcov", "vec_mm*(1-tcov)", "held*tterms", "text*qid", "vec*qwords",
	"prose*qwords", "code*qwords", "name*qid", "sym*qid", "base*qid", "doc*qwords", "name*qwords",
}

const nFeatures = 38

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

func shapeOf(query string, arms []arm) queryShape {
	s := queryShape{tokens: dedupe(lexical.Tokens(query))}
	s.words = math.Min(float64(len(strings.Fields(query))), 12) / 12
	if isIdentifier(query) {
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

// features fills c.x for one candidate; baseTop is the pool's best first
// stage score and rank the candidate's place in that order.
func (v *view) features(c *rerankCand, rank int, baseTop float64, q queryShape, arms map[string]armView) {
	x := &c.x
	if baseTop > 0 {
		x[0] = c.base / baseTop
	}
	x[1] = 1 / float64(rank+1)
	if a, ok := arms[ModeText]; ok {
		x[4] = 1
		if r, ok := a.rank[c.key]; ok {
			s := a.cands[r].score
			x[2], x[3] = clamp01(s/a.scale), 1/float64(r+1)
			if a.top > 0 {
				x[4] = (a.top - s) / a.top
			}
			x[5] = a.cands[r].held
		}
	}
	if a, ok := arms[ModeVector]; ok {
		s := a.bottom
		if r, ok := a.rank[c.key]; ok {
			s, x[8] = a.cands[r].score, 1/float64(r+1)
		}
		x[6], x[9] = s, a.top-s
		if a.top > a.bottom {
			x[7] = (s - a.bottom) / (a.top - a.bottom)
		}
	}
	if a, ok := arms[ModeSymbol]; ok {
		if r, ok := a.rank[c.key]; ok {
			s := a.cands[r].score
			x[10] = s / symbolExactCase
			if s >= symbolExact {
				x[11] = 1
			}
		}
	}
	seg := v.snap.Segments[c.key[0]]
	row := seg.RowDetail(c.key[1])
	p := v.pathOf(c.key[0], c.key[1])
	x[12] = share(q.tokens, row.Name)
	x[13] = share(q.tokens, row.Signature)
	x[14] = share(q.tokens, row.Meta().Doc)
	x[15] = share(q.tokens, strings.TrimSuffix(p, path.Ext(p)))
	switch {
	case row.Kind == "function" || row.Kind == "method":
		x[16] = 1
	case row.Kind == "var" || row.Kind == "const":
		x[18] = 1
	case isType(row.Kind):
		x[17] = 1
	case row.Kind == "file":
		x[19] = 1
	case row.Kind == "block":
		x[20] = 1
	case row.Kind == "window":
		x[21] = 1
	}
	if isProse(row.Kind, row.Language) {
		x[22] = 1
	}
	x[23] = math.Log1p(float64(seg.Lex.DocLen(c.key[1]))) / 8
	if isTestPath(p) {
		x[24] = 1
	}
	x[25], x[26], x[27] = x[2]*q.tcov, x[6]*q.tcov, x[7]*(1-q.tcov)
	x[28], x[29], x[30] = x[5]*q.tterms, x[2]*q.ident, x[6]*q.words
	x[31], x[32], x[33] = x[22]*q.words, x[16]*q.words, x[12]*q.ident
	x[34], x[35], x[36] = x[10]*q.ident, x[0]*q.ident, x[14]*q.words
	x[37] = x[12] * q.words
}

// isProse reports whether a chunk is documentation text rather than code.
func isProse(kind, lang string) bool {
	switch lang {
	case "markdown", "rst", "asciidoc", "text", "rdoc":
		return true
	}
	return kind == "section" || kind == "paragraph"
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
