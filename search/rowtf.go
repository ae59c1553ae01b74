package search

import "slices"

// rowTF is a term's weighted frequency in one row, normalised by the
// row's length: one entry of the lists of rows a term's path field and
// summaries give the text arm (textAcc adds them up).
type rowTF struct {
	seg, row int32
	tf       float64
}

// rowBefore reports whether row (seg, row) comes before (bs, br) in the
// lists' order: by segment, then by row.
func rowBefore(seg, row, bs, br int32) bool {
	return seg < bs || seg == bs && row < br
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

// formTF adds to acc, for each visible row holding form, w times the
// form's frequency in the row over BM25's length norm for the mean length
// avgdl; it keeps the form's postings for the file-level BM25 (v.forms).
func (v *view) formTF(form string, w, avgdl float64, acc *textAcc) {
	// A form no postings hold may still be in the name of a copy named
	// otherwise than its first copy (formPostings).
	per := make([][]rowFreq, len(v.snap.Segments))
	for s, seg := range v.snap.Segments {
		buf := v.formPostings(s, form, seg.Lex.Iter(form), nil)
		per[s] = buf
		for _, p := range buf {
			dl := float64(seg.Lex.DocLen(int(p.row)))
			acc.add(int32(s), p.row, w*float64(p.freq)/(1-bm25B+bm25B*dl/avgdl))
		}
	}
	if v.forms != nil {
		v.forms[form] = per
	}
}
