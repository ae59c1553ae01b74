package search

import "math"

// textArm ranks rows by BM25 of terms (a query's Terms: its tokens
// without repeats) over the revision's rows: document frequencies and
// lengths are those of the rows visible at this revision. It also
// describes the top row (textTop).
//
// A common word holds hundreds of thousands of rows in a large index, so
// the arm adds each term's frequencies and then its share of the score
// into arrays indexed by row (textAcc), terms in the query's order, and
// keeps the best armDepth in a heap: no hash map entry per posting.
func (v *view) textArm(terms []string) ([]cand, textTop) {
	if len(terms) == 0 {
		return nil, textTop{}
	}
	v.lexMaps = nil // the visible rows may have changed since the last call
	v.forms = map[string][][]rowFreq{}
	// Corpus statistics over the visible, indexed rows.
	n, totalLen := v.visibleLens()
	if n == 0 {
		return nil, textTop{}
	}
	avgdl := float64(totalLen) / float64(n)
	best, idfs := 0.0, 0.0
	idf := make([]float64, len(terms))
	rows := make([]int, len(v.snap.Segments))
	for s, seg := range v.snap.Segments {
		rows[s] = seg.Rows()
	}
	acc := getTextAcc(rows)
	for i, t := range terms {
		v.termTF(t, avgdl, acc)
		df := acc.termDF()
		idf[i] = math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
		best += idf[i] * (bm25K1 + 1)
		idfs += idf[i]
		acc.endTerm(idf[i])
	}
	scores := make([]rowScore, 0, acc.rows())
	kept := candHeap{k: armDepth}
	acc.each(func(seg, row int32, sc, held float64) {
		scores = append(scores, rowScore{seg, row, sc})
		if kept.admits(sc) {
			c := v.candOf(int(seg), int(row), sc)
			c.held = held / idfs
			kept.push(c)
		}
	})
	acc.put() // clear: the file-level BM25 takes the arrays again
	v.text = &textStats{rows: n, avgdl: avgdl, terms: terms, scores: scores}
	if v.fusion.fileText > 0 {
		v.fileBM25()
	}
	out := kept.sorted()
	var top textTop
	if len(out) > 0 && best > 0 {
		top.coverage = out[0].score / best
		top.terms = out[0].held
	}
	if v.fusion.windowChars > 0 {
		rows := make(map[[2]int]float64, len(scores))
		for _, r := range scores {
			rows[[2]int{int(r.seg), int(r.row)}] = r.score
		}
		wout, wtop := v.windowArm(terms, rows)
		if !v.fusion.windowTop {
			top = wtop
		}
		return wout, top
	}
	return out, top
}

// termTF adds one query term's frequency in each visible row that holds
// it, normalised by the row's length, to acc: the term's own postings,
// its word's other forms weighted (stems.go), its file's path field
// (paths.go) and a generated summary's words (summaries.go), added in
// that order: BM25F, with one saturation in textArm.
func (v *view) termTF(t string, avgdl float64, acc *textAcc) {
	v.formTF(t, 1, avgdl, acc)
	if w := v.fusion.stemWeight; w > 0 {
		for _, form := range wordForms(t) {
			v.formTF(form, w, avgdl, acc)
		}
	}
	acc.addRows(v.pathTF(t, v.fusion.pathWeight))
	acc.addRows(v.summaryTF(t, v.fusion.summaryText))
}

// candHeap keeps the best k candidates seen, in sortCands' order (higher
// score, then lower key, segment and row), in a min-heap whose root is the
// worst kept.
type candHeap struct {
	k int
	h []cand
}

// candWorse reports whether a ranks below b in sortCands' order.
func candWorse(a, b cand) bool {
	if a.score != b.score {
		return a.score < b.score
	}
	if a.key != b.key {
		return a.key > b.key
	}
	if a.seg != b.seg {
		return a.seg > b.seg
	}
	return a.row > b.row
}

// admits reports whether a candidate of this score may be kept: it spares
// computing the key of one that cannot.
func (t *candHeap) admits(score float64) bool {
	return len(t.h) < t.k || t.k > 0 && score >= t.h[0].score
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
