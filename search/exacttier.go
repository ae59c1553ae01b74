package search

import (
	"github.com/bcindex/bcindex/exact"
	"github.com/bcindex/bcindex/query"
	"github.com/bcindex/bcindex/store"
)

// exactTierMaxBlobs bounds the blobs the tier reads: past it (a common
// string such as "err != nil"), only the blobs of the best-ranked hits
// are checked.
const (
	exactTierMaxBlobs = 256
	exactTierTop      = 50
)

// exactFirst moves the hits whose chunk holds the query's literal verbatim
// (query.Query's Literal) ahead of the rest, keeping each group's order, and
// adds the chunks that hold it but no arm found, after the ones an arm
// did. A chunk holds a match when it is the innermost visible chunk
// around the match's first byte.
func (v *view) exactFirst(q *query.Query, ranked []fused) []fused {
	m := q.Exact()
	if m == nil {
		return ranked
	}
	blobs := v.exactCandidates(m.Query())
	if len(blobs) > exactTierMaxBlobs {
		blobs = blobs[:0]
		seen := map[blobRef]bool{}
		for _, f := range ranked[:min(len(ranked), exactTierTop)] {
			b := v.refOf(f.seg, f.row)
			if !seen[b] {
				seen[b] = true
				blobs = append(blobs, b)
			}
		}
	}
	holds := map[[2]int]bool{}
	var order [][2]int
	for _, b := range blobs {
		vb, _ := v.blobAt(b.seg, b.first)
		content, err := v.blobText(vb.sha)
		if err != nil {
			continue
		}
		m.Lines(content, func(l exact.Line) bool {
			for _, s := range l.Spans {
				if r := v.innermost(b, l.Start+s[0]); r >= 0 && !holds[[2]int{b.seg, r}] {
					holds[[2]int{b.seg, r}] = true
					order = append(order, [2]int{b.seg, r})
				}
			}
			return true
		})
	}
	if len(holds) == 0 {
		return ranked
	}
	out := make([]fused, 0, len(ranked)+len(holds))
	inRanked := map[[2]int]bool{}
	for _, f := range ranked {
		if holds[[2]int{f.seg, f.row}] {
			out = append(out, f)
			inRanked[[2]int{f.seg, f.row}] = true
		}
	}
	for _, k := range order {
		if !inRanked[k] {
			out = append(out, fused{seg: k[0], row: k[1]})
		}
	}
	for _, f := range ranked {
		if !holds[[2]int{f.seg, f.row}] {
			out = append(out, f)
		}
	}
	return out
}

// exactCandidates lists the view's blobs that the trigram index cannot
// rule out for q, in the view's order.
func (v *view) exactCandidates(q *exact.Query) []blobRef {
	var out []blobRef
	filter := v.snap.ExactFilter(q)
	for _, b := range v.added {
		vb, _ := v.blobAt(b.seg, b.first)
		if c, _ := filter(vb.sha); c == store.Candidate || c == store.Uncovered {
			out = append(out, b)
		}
	}
	return out
}

// refOf is the view's blob holding a row.
func (v *view) refOf(seg, row int) blobRef {
	first := v.rowBlobs().firstOf(seg, row)
	vb, _ := v.blobAt(seg, row)
	return blobRef{seg: seg, first: first, n: vb.n}
}

// innermost returns the smallest visible row of blob b whose bytes hold
// offset off, or -1.
func (v *view) innermost(b blobRef, off int) int {
	seg := v.snap.Segments[b.seg]
	best, size := -1, 0
	for r := b.first; r < b.first+b.n; r++ {
		if !v.allow[b.seg].Test(uint(r)) {
			continue
		}
		row := seg.Row(r)
		if row.StartByte <= off && off < row.EndByte && (best < 0 || row.EndByte-row.StartByte < size) {
			best, size = r, row.EndByte-row.StartByte
		}
	}
	return best
}
