package gitindex

import "sort"

// FreshEntries returns, in path order, the entries of l that prev does not
// hold as they are (same path, blob and skip reason). A search over many
// releases or branches adds each listing's entries to its view after the
// previous listing's, so only these can be new to it; FreshEntries(l,
// prev) are the entries prev has that l lost.
//
// Listings read from the cache (or just written to it) know how they
// differ from the listing they are stored against: when prev and l share
// it, only the entries at which either differs from it are looked at, so
// the cost follows what changed between them, not the size of the tree.
// Otherwise the two listings are walked side by side (EntryWalk).
func FreshEntries(prev, l *Listing) []Entry {
	fresh := []Entry{}
	if prev == l {
		return fresh
	}
	a := l.against
	if a == nil || prev.against != a {
		w := NewEntryWalk(prev.Full())
		for _, e := range l.Full() {
			if _, ok := w.Shared(e); !ok {
				fresh = append(fresh, e)
			}
		}
		return fresh
	}
	// Elsewhere both hold the base's entry, or neither has one. Of l's
	// entries that differ from the base, prev holds only those it holds
	// with the same difference; of the base's entries that l keeps, prev
	// lacks those it dropped. Both lists come in path order: merge them.
	var differ, kept []Entry
	i := 0
	for _, e := range l.differs {
		for i < len(prev.differs) && prev.differs[i].Path < e.Path {
			i++
		}
		if i < len(prev.differs) && prev.differs[i] == e {
			continue
		}
		differ = append(differ, e)
	}
	for _, b := range prev.dropped {
		if !l.lacksBase(b) {
			kept = append(kept, a.Entries[b])
		}
	}
	fresh = make([]Entry, 0, len(differ)+len(kept))
	for len(differ) > 0 || len(kept) > 0 {
		if len(kept) == 0 || len(differ) > 0 && differ[0].Path < kept[0].Path {
			fresh, differ = append(fresh, differ[0]), differ[1:]
		} else {
			fresh, kept = append(fresh, kept[0]), kept[1:]
		}
	}
	return fresh
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
