package lexical

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
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
	for i := 0; i < src.Terms(); i++ {
		tb := src.term(i)
		if tb == nil {
			return corrupt(src.path, "bad term table at %d", i)
		}
		it := src.Iter(string(tb))
		var t *termPostings
		for it.Next() {
			m := rowMap[it.Row()]
			if m < 0 {
				continue
			}
			if t == nil {
				t = w.termFor(string(tb))
			}
			t.buf = appendPosting(t.buf, int(m)-t.last, it.Freq())
			t.last = int(m)
			if t.df < math.MaxUint32 {
				t.df++
			}
		}
		if err := it.Err(); err != nil {
			return err
		}
	}
	return nil
}

// termFor returns the postings of term, creating them.
func (w *Writer) termFor(term string) *termPostings {
	id, ok := w.ids[term]
	if !ok {
		id = uint32(len(w.terms))
		term = strings.Clone(term)
		w.ids[term] = id
		w.terms = append(w.terms, termPostings{term: term, last: -1})
		w.counts = append(w.counts, 0)
	}
	return &w.terms[id]
}

func appendPosting(buf []byte, delta, tf int) []byte {
	buf = binary.AppendUvarint(buf, uint64(delta))
	return binary.AppendUvarint(buf, uint64(tf))
}
