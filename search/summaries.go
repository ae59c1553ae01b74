package search

import (
	"errors"
	"slices"

	"github.com/bcindex/bcindex/store"
)

// Generated summaries (`git bcindex enhance`) join the ranking through the
// index directory's summary index (store/sumindex.go), looked up by the
// visible rows' content hashes:
//
//   - In the text arm, a summary is a field of its own: its words add to
//     the row's term frequencies at weight fusionConfig.summaryText,
//     normalised by the summaries' own lengths (BM25F), before BM25's
//     one saturation, which bounds what a summary repeating a term can
//     add; a name match is the symbol arm's, which a summary never feeds.
//   - In the vector arm, a row scores the better of its code vector and
//     its summary's vector, when the summary index holds vectors of the
//     query's embedder.
//
// Options.NoSummaries leaves them out, to compare.

// summaries is the summary index as one view sees it: which visible rows
// hold each summarised text.
type summaries struct {
	x    *store.SummaryIndex
	rows [][][2]int // per entry: (segment, row) of the visible rows holding its text
}

// loadSummaries reads the summary index for the view unless opts turn
// summaries off; a damaged one is left out and named in res.Damaged (the
// next `git bcindex enhance` writes it anew).
func (v *view) loadSummaries(opts *Options, res *Result) {
	if opts.NoSummaries {
		return
	}
	x, err := store.OpenSummaryIndex(v.repo.IndexDir)
	if err != nil {
		if !errors.Is(err, store.ErrNoSummaryIndex) && res != nil {
			res.Damaged = append(res.Damaged, store.SummaryIndexFile)
		}
		return
	}
	if x.Len() == 0 {
		return
	}
	s := &summaries{x: x, rows: make([][][2]int, x.Len())}
	for si, seg := range v.snap.Segments {
		allow := v.allow[si]
		for r, ok := allow.NextSet(0); ok; r, ok = allow.NextSet(r + 1) {
			h, indexed := seg.RowHash(int(r))
			if !indexed {
				continue
			}
			if e, ok := x.ByHash[h]; ok {
				s.rows[e] = append(s.rows[e], [2]int{si, int(r)})
			}
		}
	}
	v.sums = s
}

// summaryOf returns the generated summary of a row's text, if the view
// has one.
func (v *view) summaryOf(hash [16]byte, indexed bool) *store.GeneratedSummary {
	if v.sums == nil || !indexed {
		return nil
	}
	if e, ok := v.sums.x.ByHash[hash]; ok {
		if g, err := v.sums.x.Summary(e); err == nil {
			g.Generated = true
			return &g
		}
	}
	return nil
}

// summaryTF returns term t's frequency in the summaries of the visible
// rows, normalised by the summaries' lengths and weighted w, in row order;
// nil when there are none.
func (v *view) summaryTF(t string, w float64) []rowTF {
	if v.sums == nil || w == 0 {
		return nil
	}
	var tfn []rowTF
	x := v.sums.x
	for _, p := range x.Postings(t) {
		rows := v.sums.rows[p.Entry]
		if len(rows) == 0 {
			continue
		}
		norm := 1 - bm25B + bm25B*float64(x.Lens[p.Entry])/x.AvgLen
		add := w * float64(p.Freq) / norm
		for _, k := range rows {
			tfn = append(tfn, rowTF{int32(k[0]), int32(k[1]), add})
		}
	}
	return sumRows(tfn)
}

// summaryVectors merges the summaries' vector scores into the vector
// arm's candidates: a row scores the better of its code and its summary.
// Summary vectors of another embedder than the query's are not compared.
func (v *view) summaryVectors(embedID string, query []float32, out []cand) []cand {
	if v.sums == nil || v.sums.x.Header.Dim != len(query) || v.sums.x.Header.Embed != embedID {
		return out
	}
	type scored struct {
		entry int
		score float64
	}
	var top []scored
	for e, rows := range v.sums.rows {
		if len(rows) > 0 {
			top = append(top, scored{e, v.sums.x.Dot(e, query)})
		}
	}
	slices.SortFunc(top, func(a, b scored) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return a.entry - b.entry
	})
	if len(top) > armDepth {
		top = top[:armDepth]
	}
	at := make(map[[2]int]int, len(out))
	for i, c := range out {
		at[[2]int{c.seg, c.row}] = i
	}
	for _, s := range top {
		for _, k := range v.sums.rows[s.entry] {
			if i, ok := at[k]; ok {
				out[i].score = max(out[i].score, s.score)
				continue
			}
			at[k] = len(out)
			out = append(out, v.candOf(k[0], k[1], s.score))
		}
	}
	return out
}
