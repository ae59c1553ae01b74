package search

import (
	"slices"

	"github.com/bits-and-blooms/bitset"
)

// visLens is the number of visible rows with text and the sum of their
// lengths: the text arm's corpus statistics.
type visLens struct {
	n     int
	total int64
}

// visibleLens returns the visible rows' visLens. A view that shows the
// rows of the view it copied (viewOf), as every query on a kept view of
// one revision does, reads them from that view, which counts them once;
// one whose rows were cleared since counts its own.
func (v *view) visibleLens() (int, int64) {
	if b := v.base; b != nil && sameAllow(v.allow, b.allow) {
		b.lensOnce.Do(func() { b.lens = countLens(b) })
		return b.lens.n, b.lens.total
	}
	l := countLens(v)
	return l.n, l.total
}

// countLens counts v's visible rows' lengths.
func countLens(v *view) visLens {
	var l visLens
	for s, seg := range v.snap.Segments {
		k, t := seg.Lex.VisibleLens(v.allow[s].Words())
		l.n += k
		l.total += t
	}
	return l
}

// sameAllow reports whether a and b allow the same rows of each segment.
func sameAllow(a, b []*bitset.BitSet) bool {
	if len(a) != len(b) {
		return false
	}
	for s := range a {
		wa, wb := a[s].Words(), b[s].Words()
		n := min(len(wa), len(wb))
		if !slices.Equal(wa[:n], wb[:n]) || slices.ContainsFunc(wa[n:], nonZero) || slices.ContainsFunc(wb[n:], nonZero) {
			return false
		}
	}
	return true
}
