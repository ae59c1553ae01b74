package lexical

import (
	"fmt"
	"math"
)

// Append copies src's rows into w: row r of src becomes row rowMap[r], and
// rows with rowMap[r] < 0 are dropped. Kept rows must map to increasing
// rows, all after the rows already in w. This merges segments without
// re-tokenising: postings are copied term by term.
func (w *Writer) Append(src *Index, rowMap []int32) error {
	if w.err != nil {
		return w.err
	}
	if len(rowMap) != src.Rows() {
		return fmt.Errorf("lexical: Append: row map has %d rows, index %d", len(rowMap), src.Rows())
	}
	last := len(w.docLens) - 1
	for r, m := range rowMap {
		if m < 0 {
			continue
		}
		if int(m) <= last {
			return fmt.Errorf("lexical: Append: row %d maps to %d, not after row %d", r, m, last)
		}
		last = int(m)
		for len(w.docLens) < int(m) {
			w.docLens = append(w.docLens, 0)
		}
		dl := uint32(src.DocLen(r))
		w.docLens = append(w.docLens, dl)
		w.total += uint64(dl)
		w.maxLen = max(w.maxLen, dl)
	}
	c := src.cursor(0)
	for c.next() {
		it := Iterator{data: c.post, n: c.df, rows: src.rows, row: -1}
		var t *termPostings
		for it.Next() {
			m := rowMap[it.Row()]
			if m < 0 {
				continue
			}
			if t == nil {
				t = w.termFor(c.term)
			}
			t.buf = appendPosting(t.buf, uint64(int(m)-t.last-1), uint64(it.Freq()))
			t.last = int(m)
			if t.df < math.MaxUint32 {
				t.df++
			}
		}
		if err := it.Err(); err != nil {
			return fmt.Errorf("%w (term %q)", err, c.term)
		}
	}
	return c.err
}

// termFor returns the postings of term, creating them.
func (w *Writer) termFor(term []byte) *termPostings {
	id, ok := w.ids[string(term)]
	if !ok {
		id = uint32(len(w.terms))
		t := string(term)
		w.ids[t] = id
		w.terms = append(w.terms, termPostings{term: t, last: -1})
		w.counts = append(w.counts, 0)
	}
	return &w.terms[id]
}
