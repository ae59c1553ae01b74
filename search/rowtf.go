package search

import (
	"slices"

	"github.com/bcindex/bcindex/lexical"
)

// rowTF is a term's weighted frequency in one row, normalised by the
// row's length: one entry of the sorted lists the text arm merges.
type rowTF struct {
	seg, row int32
	tf       float64
}

// rowBefore reports whether row (seg, row) comes before (bs, br) in the
// lists' order: by segment, then by row.
func rowBefore(seg, row, bs, br int32) bool {
	return seg < bs || seg == bs && row < br
}

// addRows merges b into a, both in row order and each row at most once: a
// row in both gets a's tf plus b's, as adding b's entries to a map of a's
// would. It may return a or b itself.
func addRows(a, b []rowTF) []rowTF {
	if len(b) == 0 {
		return a
	}
	if len(a) == 0 {
		return b
	}
	out := make([]rowTF, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		x, y := a[i], b[j]
		switch {
		case rowBefore(x.seg, x.row, y.seg, y.row):
			out = append(out, x)
			i++
		case rowBefore(y.seg, y.row, x.seg, x.row):
			out = append(out, y)
			j++
		default:
			x.tf += y.tf
			out = append(out, x)
			i++
			j++
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}

// sumRows sorts entries that may name a row several times into row order,
// one entry a row whose tf is the sum of its entries' in the order given
// (the order a map's += would have added them in).
func sumRows(es []rowTF) []rowTF {
	slices.SortStableFunc(es, func(a, b rowTF) int {
		switch {
		case rowBefore(a.seg, a.row, b.seg, b.row):
			return -1
		case rowBefore(b.seg, b.row, a.seg, a.row):
			return 1
		}
		return 0
	})
	out := es[:0]
	for _, e := range es {
		if n := len(out); n > 0 && out[n-1].seg == e.seg && out[n-1].row == e.row {
			out[n-1].tf += e.tf
			continue
		}
		out = append(out, e)
	}
	return out
}

// formRows reads the visible rows holding form, in row order, each with
// w times the form's frequency in the row over BM25's length norm for the
// mean length avgdl.
func (v *view) formRows(form string, w, avgdl float64) []rowTF {
	its := make([]lexical.Iterator, len(v.snap.Segments))
	n := 0
	for s, seg := range v.snap.Segments {
		its[s] = seg.Lex.Iter(form)
		n += its[s].Len()
	}
	// A form no postings hold may still be in the name of a copy named
	// otherwise than its first copy (formPostings).
	var out []rowTF
	if n > 0 {
		out = make([]rowTF, 0, n)
	}
	per := make([][]rowFreq, len(v.snap.Segments))
	for s, seg := range v.snap.Segments {
		buf := v.formPostings(s, form, its[s], nil)
		per[s] = buf
		for _, p := range buf {
			dl := float64(seg.Lex.DocLen(int(p.row)))
			out = append(out, rowTF{int32(s), p.row, w * float64(p.freq) / (1 - bm25B + bm25B*dl/avgdl)})
		}
	}
	if v.forms != nil {
		v.forms[form] = per
	}
	return out
}
