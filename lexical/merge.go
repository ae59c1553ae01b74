package lexical

import (
	"fmt"
	"maps"
	"math"
	"slices"
)

// Append copies src's rows into w: row r of src becomes row rowMap[r], and
// rows with rowMap[r] < 0 are dropped. Kept rows must map to increasing
// rows, all after the rows already in w. This merges segments without
// re-tokenising: postings are copied term by term.
func (w *Writer) Append(src *Index, rowMap []int32) error {
	return w.AppendRows(src, rowMap, rowMap, nil)
}

// TokenDiff is how a row's tokens differ from those of the row whose
// postings it takes over: Plus are in it and not in the other, Minus the
// reverse (each as many times as the difference of their counts).
type TokenDiff struct{ Plus, Minus []string }

// AppendRows is Append with the postings mapped apart from the lengths:
// row r of src keeps its length as row lens[r] (dropped when < 0; kept
// rows map to increasing rows after the rows already in w), and its
// postings become those of row posts[r] (dropped when < 0), which may be
// in any order but each a row of this call's lens, named at most once.
// A merge of segments whose postings are stored once per content uses
// it: a row that stops being a copy takes over the postings of the row
// it copied, and one that becomes a copy gives up its own. diff, by row
// of w, corrects the postings a row takes over from a row whose tokens
// differ from its own (nil: none do).
func (w *Writer) AppendRows(src *Index, lens, posts []int32, diff map[int32]TokenDiff) error {
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
	// The corrections by term: rows and the difference of their counts.
	fix := map[string][]rowPosting{}
	for m, d := range diff {
		if m <= int32(before) || int(m) > last || state[int(m)-before-1] != 2 {
			return fmt.Errorf("lexical: AppendRows: tokens corrected in row %d, which takes no postings over", m)
		}
		count := map[string]int32{}
		for _, t := range d.Plus {
			count[t]++
		}
		for _, t := range d.Minus {
			count[t]--
		}
		for t, n := range count {
			if n != 0 {
				fix[t] = append(fix[t], rowPosting{m, n})
			}
		}
	}
	var buf []rowPosting
	c := src.cursor(0)
	for c.next() {
		it := Iterator{data: c.post, n: c.df, rows: src.rows, row: -1}
		buf = buf[:0]
		for it.Next() {
			if m := posts[it.Row()]; m >= 0 {
				buf = append(buf, rowPosting{m, int32(min(it.Freq(), math.MaxInt32))})
			}
		}
		if err := it.Err(); err != nil {
			return fmt.Errorf("%w (term %q)", err, c.term)
		}
		sorted := inOrder
		if f, ok := fix[string(c.term)]; ok {
			buf, sorted = applyFix(buf, f), false
			delete(fix, string(c.term))
		}
		w.appendTerm(c.term, buf, sorted)
	}
	if c.err != nil {
		return c.err
	}
	// Terms src lacks that a correction adds.
	for _, t := range slices.Sorted(maps.Keys(fix)) {
		w.appendTerm([]byte(t), applyFix(nil, fix[t]), false)
	}
	return nil
}

type rowPosting struct{ row, tf int32 }

// applyFix adds the count differences fix to the postings buf: a row
// whose count falls to 0 or below leaves, a row buf lacks joins with a
// positive difference.
func applyFix(buf, fix []rowPosting) []rowPosting {
	delta := make(map[int32]int32, len(fix))
	for _, f := range fix {
		delta[f.row] += f.tf
	}
	out := buf[:0]
	for _, p := range buf {
		if d, ok := delta[p.row]; ok {
			p.tf += d
			delete(delta, p.row)
		}
		if p.tf > 0 {
			out = append(out, p)
		}
	}
	for _, f := range fix {
		if d, ok := delta[f.row]; ok && d > 0 {
			out = append(out, rowPosting{f.row, d})
			delete(delta, f.row)
		}
	}
	return out
}

// appendTerm appends the postings buf (in row order when sorted) to
// term's list.
func (w *Writer) appendTerm(term []byte, buf []rowPosting, sorted bool) {
	if len(buf) == 0 {
		return
	}
	if !sorted {
		slices.SortFunc(buf, func(a, b rowPosting) int { return int(a.row - b.row) })
	}
	t := w.termFor(term)
	for _, p := range buf {
		t.buf = appendPosting(t.buf, uint64(int(p.row)-t.last-1), uint64(p.tf))
		t.last = int(p.row)
		if t.df < math.MaxUint32 {
			t.df++
		}
	}
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
