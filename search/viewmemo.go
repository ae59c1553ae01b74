package search

import (
	"slices"
	"strings"

	"github.com/bits-and-blooms/bitset"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/store"
)

// viewOf builds the view of the first n listings of what the indexing
// side returned. The blobs it shows and the rows it allows depend only on the listings
// and on opts' filters, so they are derived once per store.View and
// filters (store.View.Memo) and shared by its queries, each with its own
// copy of the allowed rows (which restrictToSets and Ranking.Hide clear).
func viewOf(repo *gitindex.Repo, commit gitindex.Commit, rd *store.View, n int, opts *Options) *view {
	pk := pathsKey{n, opts.Path, strings.Join(opts.Exclude, "\x00")}
	snap := rd.Snap
	t := rd.Memo(viewKey{pk, opts.Lang, opts.Kind, snap}, func() any {
		return newView(repo, commit, snap, rd.Listings[:n], rd.Fresh[:n], rd.Located[:n], opts)
	}).(*view)
	v := newViewOf(repo, commit, snap, opts)
	v.allow = make([]*bitset.BitSet, len(t.allow))
	for s, a := range t.allow {
		v.allow[s] = a.Clone()
	}
	v.slot, v.visible, v.added = t.slot, t.visible, t.added
	v.base = t
	v.memo = rd
	v.pathsKey = pk
	return v
}

// viewKey names a view's blobs and allowed rows in store.View.Memo: the
// listings and path filters, the language and kind filters, and the
// snapshot they locate the blobs in.
type viewKey struct {
	paths      pathsKey
	lang, kind string
	snap       *store.Snapshot
}

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
