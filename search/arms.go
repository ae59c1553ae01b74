package search

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/bits"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/query"
)

// armDepth is how many candidates each arm hands to fusion.
const armDepth = 200

// symbolExact is the symbol-arm score from which a match counts as exact
// (ignoring case and separators) and earns the fusion boost.
const symbolExact = 2.5

// symbolExactCase is the score of a name equal to the query as typed.
const symbolExactCase = 4

// symbolArm ranks rows whose name matches the query: exact (case-sensitive)
// above case-insensitive above a match ignoring separators ("parse config"
// and "parse_config" both find parseConfig) above prefix. The query is
// first matched as typed; when it is qualified (Class.method, pkg::func,
// Class#method) and names nothing as typed, by its last part (q.Last). A
// qualified name (Ruby's self.method) also matches by its last part, a
// little below a whole name matching the same way.
func (v *view) symbolArm(q *query.Query) []cand {
	out := v.symbolMatches(q.Text)
	if q.Last != "" && (len(out) == 0 || out[0].score < symbolExact) {
		out = v.symbolMatches(q.Last)
	}
	return out
}

// symbolMatches is symbolArm for one form of the query. It reads every
// visible row's name, so it keeps to a tight loop over the allow bits and
// the best armDepth rows in a heap.
func (v *view) symbolMatches(q string) []cand {
	nq := squash(q)
	bq := []byte(q)
	top := candHeap{k: armDepth}
	for s, seg := range v.snap.Segments {
		for w, word := range v.allow[s].Words() {
			for ; word != 0; word &= word - 1 {
				r := w*64 + bits.TrailingZeros64(word)
				name := seg.NameBytes(r)
				if len(name) == 0 || 3*len(name) < 2*len(nq) {
					// Too short to match: squashing never lengthens a
					// name by more than half (lowercasing a rune adds
					// at most one byte to its two or more).
					continue
				}
				score := symbolScore(name, bq, nq)
				if score == 0 {
					if i := lastSeparator(name); i > 0 && i < len(name)-1 {
						// Below the same match on a whole name.
						score = 0.9 * symbolScore(name[i+1:], bq, nq)
					}
				}
				if score > 0 && top.admits(score) {
					top.push(v.candOf(s, r, score))
				}
			}
		}
	}
	return top.sorted()
}

// lastSeparator is the index of the last '.', ':' or '#' in name, -1 for
// none: a qualified name's last part follows it.
func lastSeparator(name []byte) int {
	for i := len(name) - 1; i >= 0; i-- {
		if c := name[i]; c == '.' || c == ':' || c == '#' {
			return i
		}
	}
	return -1
}

// symbolScore scores one name against the query q (squashed: nq); 0 when
// it does not match. A query of no letters or digits (Ruby's <<, =~)
// matches only a name equal to it.
func symbolScore(name, q []byte, nq string) float64 {
	if nq == "" {
		if bytes.Equal(name, q) {
			return symbolExactCase
		}
		return 0
	}
	switch equal, prefix, n := matchSquashed(name, nq); {
	case !prefix:
		return 0
	case bytes.Equal(name, q):
		return symbolExactCase
	case bytes.EqualFold(name, q):
		return 3
	case equal:
		return symbolExact
	case len(nq) >= 3:
		return 1 + float64(len(nq))/float64(n)
	}
	return 0
}

// matchSquashed compares name, squashed (letters and digits only,
// lowercased), with nq, which is already squashed: whether they are equal,
// whether nq is a prefix of it, and the squashed length. It allocates
// nothing for ASCII names and stops at the first difference: it runs for
// every visible row.
func matchSquashed(name []byte, nq string) (equal, prefix bool, n int) {
	j := 0
	for _, c := range name {
		if c >= utf8.RuneSelf {
			sq := squash(string(name))
			return sq == nq, strings.HasPrefix(sq, nq), len(sq)
		}
		switch {
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
		default:
			continue
		}
		if j < len(nq) {
			if nq[j] != c {
				return false, false, 0
			}
		}
		j++
	}
	return j == len(nq), j >= len(nq), j
}

// squash lowercases and drops everything but letters and digits.
func squash(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// BM25 parameters. On the dev suite (bench/suites/dev), k1 0.9 and 1.5
// and b 0.5 and 0.9 each scored 0.002 to 0.004 below these.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// textTop describes the text arm's top row, which fusion weighs the arm by.
type textTop struct {
	// coverage is its score over the most any row could score (every
	// query term present, at saturating frequency).
	coverage float64
	// terms is the share of the query's terms, weighted by IDF, that it
	// holds: 1 when every word of the query is in it, as when the query
	// is its doc comment.
	terms float64
}

// textArm ranks rows by BM25 of terms (a query's Terms: its tokens
// without repeats) over the revision's rows: document frequencies and
// lengths are those of the rows visible at this revision. It also
// describes the top row (textTop).
func (v *view) textArm(terms []string) ([]cand, textTop) {
	if len(terms) == 0 {
		return nil, textTop{}
	}
	// Corpus statistics over the visible, indexed rows.
	var n int
	var totalLen int64
	for s, seg := range v.snap.Segments {
		k, l := seg.Lex.VisibleLens(v.allow[s].Words())
		n += k
		totalLen += l
	}
	if n == 0 {
		return nil, textTop{}
	}
	avgdl := float64(totalLen) / float64(n)
	best, idfs := 0.0, 0.0
	// A posting's frequency is normalised by its row's length; a generated
	// summary adds its own, normalised alike (summaries.go): BM25F, with
	// one saturation below.
	type posting struct {
		k  [2]int
		tf float64
	}
	scores := map[[2]int]float64{}
	held := map[[2]int]float64{} // IDF of the query terms each row holds
	for _, t := range terms {
		var ps []posting
		for s, seg := range v.snap.Segments {
			allow := v.allow[s]
			it := seg.Lex.Postings(t)
			for it.Next() {
				if allow.Test(uint(it.Row())) {
					dl := float64(seg.Lex.DocLen(it.Row()))
					ps = append(ps, posting{[2]int{s, it.Row()}, float64(it.Freq()) / (1 - bm25B + bm25B*dl/avgdl)})
				}
			}
		}
		if w := v.fusion.stemWeight; w > 0 {
			// The word's other forms, as the same term (stems.go).
			var at map[[2]int]int
			for _, form := range wordForms(t) {
				for s, seg := range v.snap.Segments {
					allow := v.allow[s]
					it := seg.Lex.Postings(form)
					for it.Next() {
						if !allow.Test(uint(it.Row())) {
							continue
						}
						if at == nil {
							at = make(map[[2]int]int, len(ps))
							for i, p := range ps {
								at[p.k] = i
							}
						}
						k := [2]int{s, it.Row()}
						dl := float64(seg.Lex.DocLen(it.Row()))
						tf := w * float64(it.Freq()) / (1 - bm25B + bm25B*dl/avgdl)
						if i, ok := at[k]; ok {
							ps[i].tf += tf
						} else {
							at[k] = len(ps)
							ps = append(ps, posting{k, tf})
						}
					}
				}
			}
		}
		if extra := v.pathTF(t, v.fusion.pathWeight); len(extra) > 0 {
			for i := range ps {
				if x, ok := extra[ps[i].k]; ok {
					ps[i].tf += x
					delete(extra, ps[i].k)
				}
			}
			for k, x := range extra {
				ps = append(ps, posting{k, x})
			}
		}
		if extra := v.summaryTF(t, v.fusion.summaryText); len(extra) > 0 {
			for i := range ps {
				if x, ok := extra[ps[i].k]; ok {
					ps[i].tf += x
					delete(extra, ps[i].k)
				}
			}
			for k, x := range extra {
				ps = append(ps, posting{k, x})
			}
		}
		df := float64(len(ps))
		idf := math.Log(1 + (float64(n)-df+0.5)/(df+0.5))
		best += idf * (bm25K1 + 1)
		idfs += idf
		for _, p := range ps {
			scores[p.k] += idf * p.tf * (bm25K1 + 1) / (p.tf + bm25K1)
			held[p.k] += idf
		}
	}
	v.text = &textStats{rows: n, avgdl: avgdl, terms: terms, scores: scores}
	if v.fusion.fileText > 0 {
		v.fileBM25()
	}
	kept := candHeap{k: armDepth}
	for k, sc := range scores {
		if kept.admits(sc) {
			c := v.candOf(k[0], k[1], sc)
			c.held = held[k] / idfs
			kept.push(c)
		}
	}
	out := kept.sorted()
	var top textTop
	if len(out) > 0 && best > 0 {
		top.coverage = out[0].score / best
		top.terms = out[0].held
	}
	return out, top
}

func dedupe(ts []string) []string {
	seen := map[string]bool{}
	out := ts[:0:0]
	for _, t := range ts {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

// vectorArm ranks rows by cosine similarity with the query's embedding.
func (v *view) vectorArm(ctx context.Context, emb embed.Embedder, query string) ([]cand, error) {
	vecs, err := emb.Embed(ctx, []string{query}, embed.RoleQuery)
	if err != nil {
		return nil, err
	}
	if len(vecs) != 1 {
		return nil, nil
	}
	out, err := v.vectorArmVec(vecs[0])
	if err != nil || v.sums == nil {
		return out, err
	}
	out = v.summaryVectors(emb.ID(), vecs[0], out)
	sortCands(out)
	if len(out) > armDepth {
		out = out[:armDepth]
	}
	return out, nil
}

// vectorArmVec ranks rows by cosine similarity with a query vector. It
// fails with vector.ErrFault when mapped vectors became unreadable (gc
// rewrote the log they are in): Search then runs again.
func (v *view) vectorArmVec(query []float32) ([]cand, error) {
	var out []cand
	for s, seg := range v.snap.Segments {
		if seg.Vec == nil {
			continue
		}
		hits, err := seg.Vec.Search(query, armDepth, v.allow[s])
		if err != nil {
			return nil, fmt.Errorf("vector search of segment %s: %w", seg.ID, err)
		}
		for _, h := range hits {
			out = append(out, v.candOf(s, h.Row, float64(h.Score)))
		}
	}
	sortCands(out)
	if len(out) > armDepth {
		out = out[:armDepth]
	}
	return out, nil
}
