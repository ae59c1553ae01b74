package lexical

import (
	"fmt"
	"math"
	"slices"
)

// Append copies src's rows into w: row r of src becomes row rowMap[r], and
// rows with rowMap[r] < 0 are dropped. Kept rows must map to increasing
// rows, all after the rows already in w. This merges segments without
// re-tokenising: postings are copied term by term.
func (w *Writer) Append(src *Index, rowMap []int32) error {
	return w.AppendRows(src, rowMap, rowMap)
}

// AppendRows is Append with the postings mapped apart from the lengths:
// row r of src keeps its length as row lens[r] (dropped when < 0; kept
// rows map to increasing rows after the rows already in w), and its
// postings become those of row posts[r] (dropped when < 0), which may be
// in any order but each a row of this call's lens, named at most once.
// A merge of segments whose postings are stored once per content uses
// it: a row that stops being a copy takes over the postings of the row
// it copied, and one that becomes a copy gives up its own.
func (w *Writer) AppendRows(src *Index, lens, posts []int32) error {
	if w.err != nil {
		return w.err
	}
	if len(lens) != src.Rows() || len(posts) != src.Rows() {
		return fmt.Errorf("lexical: AppendRows: row maps have %d and %d rows, index %d", len(lens), len(posts), src.Rows())
	}
	before := len(w.docLens) - 1
	last := before
	for r, m := range lens {
		if m < 0 {
			continue
		}
		if int(m) <= last {
			return fmt.Errorf("lexical: AppendRows: row %d maps to %d, not after row %d", r, m, last)
		}
		last = int(m)
		w.addLen(int(m), src.DocLen(r))
	}
	// A row of this call's lens may take one row's postings: 1 kept, 2
	// taken.
	state := make([]uint8, last-before)
	for _, m := range lens {
		if m >= 0 {
			state[int(m)-before-1] = 1
		}
	}
	inOrder := true
	prev := int32(-1)
	for r, m := range posts {
		if m < 0 {
			continue
		}
		if int(m) <= before || int(m) > last || state[int(m)-before-1] != 1 {
			return fmt.Errorf("lexical: AppendRows: postings of row %d map to row %d, not a row of the call's that has none yet", r, m)
		}
		state[int(m)-before-1] = 2
		inOrder = inOrder && m > prev
		prev = m
	}
	type posting struct{ row, tf int32 }
	var buf []posting
	c := src.cursor(0)
	for c.next() {
		it := Iterator{data: c.post, n: c.df, rows: src.rows, row: -1}
		buf = buf[:0]
		for it.Next() {
			if m := posts[it.Row()]; m >= 0 {
				buf = append(buf, posting{m, int32(min(it.Freq(), math.MaxInt32))})
			}
		}
		if err := it.Err(); err != nil {
			return fmt.Errorf("%w (term %q)", err, c.term)
		}
		if len(buf) == 0 {
			continue
		}
		if !inOrder {
			slices.SortFunc(buf, func(a, b posting) int { return int(a.row - b.row) })
		}
		t := w.termFor(c.term)
		for _, p := range buf {
			t.buf = appendPosting(t.buf, uint64(int(p.row)-t.last-1), uint64(p.tf))
			t.last = int(p.row)
			if t.df < math.MaxUint32 {
				t.df++
			}
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
