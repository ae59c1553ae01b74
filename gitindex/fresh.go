package gitindex

import "sort"

// FreshEntries returns, in path order, the entries of l that prev does not
// hold as they are (same path, blob and skip reason). A search over many
// releases or branches adds each listing's entries to its view after the
// previous listing's, so only these can be new to it.
func FreshEntries(prev, l *Listing) []Entry {
	fresh, _ := Changes(prev, l)
	return fresh
}

// Changes returns, in path order, the entries of l that prev does not hold
// as they are (fresh) and the entries of prev that l does not hold as they
// are (gone).
//
// Listings read from the cache (or just written to it) know how they
// differ from the listing they are stored against: when prev and l share
// it, only the entries at which either differs from it are looked at, so
// the cost follows what changed between them, not the size of the tree.
// Otherwise the two listings are merged side by side.
func Changes(prev, l *Listing) (fresh, gone []Entry) {
	if prev == l {
		return []Entry{}, []Entry{}
	}
	a := l.against
	if a == nil || prev.against != a {
		return mergeChanges(prev.Full(), l.Full())
	}
	// Elsewhere both hold the base's entry, or neither has one. Of the
	// entries that differ from the base in either, the other holds only
	// those it holds with the same difference; of the base's entries, one
	// lacks those it dropped and the other keeps.
	differ, lost := mergeChanges(prev.differs, l.differs)
	var kept, dropped []Entry
	for _, b := range prev.dropped {
		if !l.lacksBase(b) {
			kept = append(kept, a.Entries[b])
		}
	}
	for _, b := range l.dropped {
		if !prev.lacksBase(b) {
			dropped = append(dropped, a.Entries[b])
		}
	}
	return mergeByPath(differ, kept), mergeByPath(lost, dropped)
}

// mergeChanges walks two lists of entries sorted by path and returns the
// entries of next that prev lacks or holds otherwise, and those of prev
// that next lacks or holds otherwise.
func mergeChanges(prev, next []Entry) (fresh, gone []Entry) {
	fresh, gone = []Entry{}, []Entry{}
	i, j := 0, 0
	for i < len(prev) || j < len(next) {
		switch {
		case j == len(next):
			gone = append(gone, prev[i])
			i++
		case i == len(prev):
			fresh = append(fresh, next[j])
			j++
		case prev[i] == next[j]: // equal paths that share their bytes compare without reading them
			i++
			j++
		case prev[i].Path == next[j].Path:
			gone, fresh = append(gone, prev[i]), append(fresh, next[j])
			i++
			j++
		case prev[i].Path < next[j].Path:
			gone = append(gone, prev[i])
			i++
		default:
			fresh = append(fresh, next[j])
			j++
		}
	}
	return fresh, gone
}

// mergeByPath merges two lists of entries sorted by path, with no path in
// both.
func mergeByPath(x, y []Entry) []Entry {
	out := make([]Entry, 0, len(x)+len(y))
	for len(x) > 0 || len(y) > 0 {
		if len(y) == 0 || len(x) > 0 && x[0].Path < y[0].Path {
			out, x = append(out, x[0]), x[1:]
		} else {
			out, y = append(out, y[0]), y[1:]
		}
	}
	return out
}

// Full returns the listing's entries, building them first if the listing
// was read by ListingsByDelta.
func (l *Listing) Full() []Entry {
	if l.lazy {
		l.Entries, l.lazy = applyDelta(l.against.Entries, l.dropped, l.differs), false
	}
	return l.Entries
}

// lacksBase reports whether l lacks entry b of its base as it is.
func (l *Listing) lacksBase(b int32) bool {
	w := int(b) / 64
	return w < len(l.lacks) && l.lacks[w]&(1<<(uint(b)%64)) != 0
}

// setDelta records how l differs from a, the listing stored in full that
// it is read or written against: gone are the paths of a that l lacks and
// changed the entries of l that a lacks or holds otherwise, both sorted by
// path.
func (l *Listing) setDelta(a *Listing, gone []string, changed []Entry) {
	l.against, l.differs, l.dropped, l.lacks = a, changed, nil, nil
	if len(gone)+len(changed) == 0 {
		return
	}
	l.lacks = make([]uint64, (len(a.Entries)+63)/64)
	drop := func(at int, p string) int {
		b, ok := findPath(a.Entries, at, p)
		if ok {
			l.dropped = append(l.dropped, int32(b))
			l.lacks[b/64] |= 1 << (uint(b) % 64)
		}
		return b
	}
	at, g := 0, 0
	for _, e := range changed {
		for g < len(gone) && gone[g] < e.Path {
			at, g = drop(at, gone[g]), g+1
		}
		at = drop(at, e.Path)
	}
	for _, p := range gone[g:] {
		at = drop(at, p)
	}
}

// findPath finds the entry at path p of entries sorted by path, at or
// after from: it gallops forward, then bisects, so a pass over sorted
// paths a few entries apart costs a few comparisons each.
func findPath(es []Entry, from int, p string) (int, bool) {
	lo, step := from, 1
	for lo+step < len(es) && es[lo+step].Path < p {
		lo += step
		step *= 2
	}
	hi := min(lo+step+1, len(es))
	i := lo + sort.Search(hi-lo, func(i int) bool { return es[lo+i].Path >= p })
	return i, i < len(es) && es[i].Path == p
}
