package search

import (
	"math"
	"path"
	"strings"

	"github.com/bcindex/bcindex/lexical"
	"github.com/bcindex/bcindex/query"
)

// The second stage's features (rerank.go): what each arm said about a
// candidate, how much of the query its name and path hold (not its
// signature: reading it decompresses the blob's details, 50 µs a row),
// and what its file says: the file's own BM25 (the file as one document),
// its candidates' summed first-stage scores and count, the candidate's
// place among them, the priors of where answers rarely live, and whether
// it defines a name the query spells. Query-level values alone cannot
// reorder one query's candidates, so they enter as products with a
// candidate's values, or through the trees.
var rerankFeatureNames = []string{
	"base", "base_rr",
	"text", "text_rr", "text_gap", "held",
	"vec", "vec_mm", "vec_rr", "vec_gap",
	"sym", "sym_exact",
	"name", "path", "size",
	"text*tcov", "vec*tcov", "vec_mm*(1-tcov)", "held*tterms", "text*qid", "vec*qwords",
	"name*qid", "sym*qid", "name*qwords",
	"file_text", "file_sum", "file_n", "file_rank", "file_best", "file_vec",
	"prior", "prose", "stem", "defines", "file_defines",
	"qwords", "question", "tcov",
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
	q            *query.Query
	tokens       []string // its distinct search tokens
	words        float64  // its word count over 12, at most 1
	ident        float64  // 1 for one identifier
	tcov, tterms float64  // the text arm's top hit: coverage and share of terms
	question     float64  // 1 for a question (how, what, where...)
	names        []string // the code names it spells, squashed
	files        bool     // the file's features are wanted (fileFeatures)
}

func shapeOf(q *query.Query, arms []arm) queryShape {
	s := queryShape{q: q, tokens: q.Terms, names: spelledNames(q)}
	s.words = math.Min(float64(len(q.Words)), 12) / 12
	if q.Shape == query.Identifier {
		s.ident = 1
	}
	if len(q.Words) > 1 && questionWords[strings.ToLower(q.Words[0])] {
		s.question = 1
	}
	for _, a := range arms {
		if a.name == ModeText {
			s.tcov, s.tterms = a.top.coverage, a.top.terms
		}
	}
	return s
}

// questionWords open a question.
var questionWords = map[string]bool{"how": true, "what": true, "where": true, "why": true, "which": true, "when": true, "who": true,
	"does": true, "do": true, "is": true, "are": true, "can": true, "should": true}

// spelledNames are the words of a query that read as code names: one
// identifier alone, or inside a sentence a word in camelCase, PascalCase
// with a second capital, snake_case, or qualified (pkg.Name, Type::m);
// squashed, the last part of a qualified one too.
func spelledNames(q *query.Query) []string {
	var out []string
	for _, w := range q.Words {
		w = strings.Trim(w, "`'\",;:!?()[]{}")
		w = strings.TrimSuffix(strings.TrimSuffix(w, "()"), ".")
		if w == "" {
			continue
		}
		if !(len(q.Words) == 1 || looksLikeCode(w)) {
			continue
		}
		out = append(out, squash(w))
		if i := strings.LastIndexAny(w, ".:#"); i >= 0 && i < len(w)-1 {
			out = append(out, squash(w[i+1:]))
		}
	}
	return out
}

// looksLikeCode reports whether a word of a sentence is written as a
// code name rather than as English.
func looksLikeCode(w string) bool {
	if strings.ContainsAny(w, "_.:#") && strings.IndexFunc(w, isLetter) >= 0 {
		return true
	}
	upper := 0
	for i, r := range w {
		if r >= 'A' && r <= 'Z' {
			if i > 0 {
				return true
			}
			upper++
		}
	}
	return false
}

func isLetter(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }

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

// features fills c.x for one candidate, in rerankFeatureNames' order,
// but for the file's features (fileFeatures); baseTop is the pool's best
// first stage score and rank the candidate's place in that order.
func (v *view) features(c *rerankCand, rank int, baseTop float64, q queryShape, arms map[string]armView) {
	var base, baseRR, text, textRR, textGap, held, vec, vecMM, vecRR, vecGap, sym, symExact float64
	if baseTop > 0 {
		base = c.base / baseTop
	}
	baseRR = 1 / float64(rank+1)
	if a, ok := arms[ModeText]; ok {
		textGap = 1
		s := 0.0
		if r, ok := a.rank[c.key]; ok {
			s = a.cands[r].score
			textRR, held = 1/float64(r+1), a.cands[r].held
		} else if v.text != nil && v.fusion.textAll {
			s = v.text.score(c.key)
		}
		text = clamp01(s / a.scale)
		if a.top > 0 {
			textGap = (a.top - s) / a.top
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
	var prose, defines, prior, stem float64
	if q.files {
		prose, defines = proseAndDefines(row.Name, row.Language, q)
		prior, stem = pathPrior(p, "", q.q), stemShare(q.tokens, p)
	}
	c.x = [nFeatures]float64{
		base, baseRR,
		text, textRR, textGap, held,
		vec, vecMM, vecRR, vecGap,
		sym, symExact,
		name, share(q.tokens, strings.TrimSuffix(p, path.Ext(p))),
		math.Log1p(float64(seg.Lex.DocLen(c.key[1]))) / 8,
		text * q.tcov, vec * q.tcov, vecMM * (1 - q.tcov), held * q.tterms, text * q.ident, vec * q.words,
		name * q.ident, sym * q.ident, name * q.words,
		0, 0, 0, 0, 0, 0, // the file's: fileFeatures
		prior, prose, stem, defines, 0,
		q.words, q.question, q.tcov,
	}
}

// proseAndDefines are two of the file's features of a candidate: 1 for
// prose when the query does not ask for docs, and 1 when it defines a
// name the query spells (its name, or a qualified name's last part).
func proseAndDefines(name, lang string, q queryShape) (prose, defines float64) {
	if isProse(lang) && !asksForDocs(q.q) {
		prose = 1
	}
	if len(q.names) > 0 && name != "" {
		rn := squash(name)
		last := rn
		if i := strings.LastIndexAny(name, ".:#"); i >= 0 && i < len(name)-1 {
			last = squash(name[i+1:])
		}
		for _, n := range q.names {
			if n == rn || n == last {
				defines = 1
			}
		}
	}
	return prose, defines
}

// Indexes of the file features in rerankFeatureNames.
const (
	fFileText = 24 + iota
	fFileSum
	fFileN
	fFileRank
	fFileBest
	fFileVec
	fPrior
	fProse
	fStem
	fDefines
	fFileDefines
)

// fileFeatures fills the features of each candidate's file, read from
// the pool (candidates of one file) and the file's own BM25.
func (v *view) fileFeatures(pool []rerankCand) {
	type agg struct {
		sum, best, vec, defines float64
		n                       int
	}
	files := make([][2]int, len(pool))
	aggs := map[[2]int]*agg{}
	maxSum := 0.0
	for i := range pool {
		c := &pool[i]
		f := [2]int{c.key[0], v.rowBlobs().firstOf(c.key[0], c.key[1])}
		files[i] = f
		a := aggs[f]
		if a == nil {
			a = &agg{}
			aggs[f] = a
		}
		c.x[fFileRank] = 1 / float64(a.n+1)
		a.n++
		a.sum += c.x[0]
		a.best = max(a.best, c.x[0])
		a.vec = max(a.vec, c.x[7])
		a.defines = max(a.defines, c.x[fDefines])
		maxSum = max(maxSum, a.sum)
	}
	for i := range pool {
		c := &pool[i]
		a := aggs[files[i]]
		if maxSum > 0 {
			c.x[fFileSum] = a.sum / maxSum
		}
		c.x[fFileN] = math.Log1p(float64(a.n)) / 3
		c.x[fFileBest] = a.best
		c.x[fFileVec] = a.vec
		c.x[fFileDefines] = a.defines
		if v.fileScore != nil {
			c.x[fFileText] = v.fileScoreOf(files[i])
		}
	}
}

// stemShare is the share of the query's tokens that name the file (its
// name without extension) or its directory, a plural's s aside.
func stemShare(q []string, p string) float64 {
	if len(q) == 0 || p == "" {
		return 0
	}
	base := path.Base(p)
	words := lexical.Tokens(strings.TrimSuffix(base, path.Ext(base)) + " " + path.Base(path.Dir(p)))
	n := 0
	for _, t := range q {
		for _, u := range words {
			if t == u || strings.TrimSuffix(t, "s") == strings.TrimSuffix(u, "s") && len(t) > 3 {
				n++
				break
			}
		}
	}
	return float64(n) / float64(len(q))
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
