package search

import (
	"bytes"
	"context"
	"fmt"
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
	ni := v.nameIndexOf(true)
	out := v.symbolMatches(q.Text, ni)
	if q.Last != "" && (len(out) == 0 || out[0].score < symbolExact) {
		out = v.symbolMatches(q.Last, ni)
	}
	return out
}

// symbolMatches is symbolArm for one form of the query. It reads every
// visible row's name, so it keeps to a tight loop over the allow bits and
// the best armDepth rows in a heap; with a name index (nameIndexOf), only
// the rows whose squashed name starts with the query's.
func (v *view) symbolMatches(q string, ni *nameIndex) []cand {
	nq := squash(q)
	bq := []byte(q)
	top := candHeap{k: armDepth}
	var rows []int32
	for s, seg := range v.snap.Segments {
		allow := v.allow[s]
		try := func(r int) {
			name := seg.NameBytes(r)
			if len(name) == 0 || 3*len(name) < 2*len(nq) {
				// Too short to match: squashing never lengthens a
				// name by more than half (lowercasing a rune adds
				// at most one byte to its two or more).
				return
			}
			if score := nameScore(name, bq, nq); score > 0 && top.admits(score) {
				top.push(v.candOf(s, r, score))
			}
		}
		if ni != nil && nq != "" {
			rows = ni.rows(s, nq, rows)
			for _, r := range rows {
				if allow.Test(uint(r)) {
					try(int(r))
				}
			}
			continue
		}
		for w, word := range allow.Words() {
			for ; word != 0; word &= word - 1 {
				try(w*64 + bits.TrailingZeros64(word))
			}
		}
	}
	return top.sorted()
}

// nameScore is the symbol arm's score of one name: symbolScore of the
// whole name, else a little below, of its last part after a separator.
func nameScore(name, q []byte, nq string) float64 {
	score := symbolScore(name, q, nq)
	if score == 0 {
		if i := lastSeparator(name); i > 0 && i < len(name)-1 {
			// Below the same match on a whole name.
			score = 0.9 * symbolScore(name[i+1:], q, nq)
		}
	}
	return score
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
