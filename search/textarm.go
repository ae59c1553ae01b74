package search

import (
	"math"
	"slices"
)

// textArm ranks rows by BM25 of terms (a query's Terms: its tokens
// without repeats) over the revision's rows: document frequencies and
// lengths are those of the rows visible at this revision. It also
// describes the top row (textTop).
//
// Each term's postings are read once into a list in (segment, row)
// order; the lists are then merged, so a row's score adds its terms'
// shares in query order, and only the best armDepth rows are kept: a
// common word's hundreds of thousands of rows cost a pass over an array,
// not a hash map and a sort.
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
	lists := make([][]posting, len(terms))
	idf := make([]float64, len(terms))
	for i, t := range terms {
		ps := v.termPostings(t, avgdl)
		if extra := v.summaryTF(t, v.fusion.summaryText); len(extra) > 0 {
			for i := range ps {
				if x, ok := extra[ps[i].key()]; ok {
					ps[i].tf += x
					delete(extra, ps[i].key())
				}
			}
			for k, x := range extra {
				ps = append(ps, posting{int32(k[0]), int32(k[1]), x})
			}
			slices.SortFunc(ps, func(a, b posting) int { return cmpKey(a.seg, a.row, b.seg, b.row) })
		}
		df := float64(len(ps))
		idf[i] = math.Log(1 + (float64(n)-df+0.5)/(df+0.5))
		best += idf[i] * (bm25K1 + 1)
		idfs += idf[i]
		lists[i] = ps
	}
	if v.fusion.fileText > 0 {
		v.fileBM25(terms, n, avgdl)
	}
	top := candHeap{k: armDepth}
	mergePostings(lists, func(seg, row int, at []int) {
		var sc, held float64
		for _, i := range at {
			tf := lists[i][0].tf
			sc += idf[i] * tf * (bm25K1 + 1) / (tf + bm25K1)
			held += idf[i]
		}
		top.push(cand{seg: seg, row: row, score: sc, held: held / idfs})
	})
	out := top.sorted()
	var tt textTop
	if len(out) > 0 && best > 0 {
		tt.coverage = out[0].score / best
		tt.terms = out[0].held
	}
	return out, tt
}

// posting is one visible row holding a term, with the term's frequency
// normalised by the row's length.
type posting struct {
	seg, row int32
	tf       float64
}

func (p posting) key() [2]int { return [2]int{int(p.seg), int(p.row)} }

// cmpKey orders rows by segment, then row.
func cmpKey(sa, ra, sb, rb int32) int {
	if sa != sb {
		return int(sa - sb)
	}
	return int(ra - rb)
}

// termPostings lists the visible rows holding t in (segment, row) order.
func (v *view) termPostings(t string, avgdl float64) []posting {
	var ps []posting
	for s, seg := range v.snap.Segments {
		allow := v.allow[s]
		it := seg.Lex.Iter(t)
		for it.Next() {
			if r := it.Row(); allow.Test(uint(r)) {
				dl := float64(seg.Lex.DocLen(r))
				ps = append(ps, posting{int32(s), int32(r), float64(it.Freq()) / (1 - bm25B + bm25B*dl/avgdl)})
			}
		}
	}
	return ps
}

// mergePostings walks lists (each in (segment, row) order) together: for
// each row in any of them, in order, it calls visit with the indexes of
// the lists that hold it, ascending, each list's first element being that
// row's. The lists are consumed (resliced) as it goes.
func mergePostings(lists [][]posting, visit func(seg, row int, at []int)) {
	at := make([]int, 0, len(lists))
	for {
		found := false
		var ms, mr int32
		for _, l := range lists {
			if len(l) > 0 && (!found || cmpKey(l[0].seg, l[0].row, ms, mr) < 0) {
				ms, mr, found = l[0].seg, l[0].row, true
			}
		}
		if !found {
			return
		}
		at = at[:0]
		for i, l := range lists {
			if len(l) > 0 && l[0].seg == ms && l[0].row == mr {
				at = append(at, i)
			}
		}
		visit(int(ms), int(mr), at)
		for _, i := range at {
			lists[i] = lists[i][1:]
		}
	}
}

// candHeap keeps the best k candidates seen, in sortCands' order (higher
// score, then lower segment, then lower row), in a min-heap whose root is
// the worst kept.
type candHeap struct {
	k int
	h []cand
}

// candWorse reports whether a ranks below b in sortCands' order.
func candWorse(a, b cand) bool {
	if a.score != b.score {
		return a.score < b.score
	}
	if a.seg != b.seg {
		return a.seg > b.seg
	}
	return a.row > b.row
}

func (t *candHeap) push(c cand) {
	h := t.h
	if len(h) < t.k {
		h = append(h, c)
		for i := len(h) - 1; i > 0; {
			p := (i - 1) / 2
			if !candWorse(h[i], h[p]) {
				break
			}
			h[i], h[p] = h[p], h[i]
			i = p
		}
		t.h = h
		return
	}
	if t.k == 0 || !candWorse(h[0], c) {
		return
	}
	h[0] = c
	for i := 0; ; {
		l := 2*i + 1
		if l >= len(h) {
			break
		}
		m := l
		if r := l + 1; r < len(h) && candWorse(h[r], h[l]) {
			m = r
		}
		if !candWorse(h[m], h[i]) {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

// sorted returns the kept candidates, best first.
func (t *candHeap) sorted() []cand {
	out := t.h
	sortCands(out)
	return out
}
