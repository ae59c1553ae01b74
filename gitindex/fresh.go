package gitindex

// FreshEntries returns the indexes, in path order, of l's entries that
// prev does not hold as they are (same path, blob and skip reason). A
// search over many releases or branches adds each listing's entries to
// its view after the previous listing's, so only these can be new to it.
//
// Listings read from the cache (or just written to it) know how they
// differ from their base: when prev and l share a base, only the entries
// at which either differs from it are looked at, so the cost follows what
// changed between them, not the size of the tree. Otherwise the two
// listings are walked side by side (EntryWalk).
func FreshEntries(prev, l *Listing) []int {
	fresh := []int{}
	if prev == l {
		return fresh
	}
	if prev.against == nil || prev.against != l.against {
		w := NewEntryWalk(prev.Entries)
		for j, e := range l.Entries {
			if _, ok := w.Shared(e); !ok {
				fresh = append(fresh, j)
			}
		}
		return fresh
	}
	// Elsewhere both hold the base's entry, or neither has one. Of l's
	// entries that differ from the base, prev holds only those it holds
	// with the same difference; of the base's entries that l keeps, prev
	// lacks those it dropped. Both lists come in path order: merge them.
	var differ, kept []int
	i := 0
	for _, j := range l.changed {
		e := &l.Entries[j]
		for i < len(prev.changed) && prev.Entries[prev.changed[i]].Path < e.Path {
			i++
		}
		if i < len(prev.changed) && prev.Entries[prev.changed[i]] == *e {
			continue
		}
		differ = append(differ, int(j))
	}
	for _, b := range prev.dropped {
		if j := l.at(b); j >= 0 {
			kept = append(kept, j)
		}
	}
	for len(differ) > 0 || len(kept) > 0 {
		if len(kept) == 0 || len(differ) > 0 && differ[0] < kept[0] {
			fresh, differ = append(fresh, differ[0]), differ[1:]
		} else {
			fresh, kept = append(fresh, kept[0]), kept[1:]
		}
	}
	return fresh
}

// at is the index in l.Entries of its base's entry b, or -1.
func (l *Listing) at(b int32) int {
	if l.outOf == nil {
		return int(b) // l is the base
	}
	return int(l.outOf[b])
}

// indexDelta walks a listing's entries against its base's, both sorted by
// path, and says how they differ by index (see Listing).
func indexDelta(base, next []Entry) (outOf, changed, dropped []int32) {
	outOf = make([]int32, len(base))
	i, j := 0, 0
	for i < len(base) || j < len(next) {
		switch {
		case j == len(next) || i < len(base) && base[i].Path < next[j].Path:
			outOf[i] = -1
			dropped = append(dropped, int32(i))
			i++
		case i == len(base) || next[j].Path < base[i].Path:
			changed = append(changed, int32(j))
			j++
		default:
			outOf[i] = int32(j)
			if base[i] != next[j] {
				outOf[i] = -1
				dropped = append(dropped, int32(i))
				changed = append(changed, int32(j))
			}
			i++
			j++
		}
	}
	return outOf, changed, dropped
}
