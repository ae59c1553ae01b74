package gitindex

// EntryWalk walks a listing's entries alongside another listing's, both
// sorted by path, telling which entries the other one holds as they are.
// Releases and branches of a project share most entries, and a listing
// read from the cache shares the strings of the entries it has in common
// with its base, so a pass over many listings can skip what the previous
// one had at the cost of a comparison, where a set of (path, blob) pairs
// would hash every path.
type EntryWalk struct {
	other []Entry
	j     int
}

// NewEntryWalk starts a walk against other (nil: no entry is shared).
func NewEntryWalk(other []Entry) EntryWalk { return EntryWalk{other: other} }

// Shared reports whether the other listing holds e (same path, blob and
// skip reason), and if so its index there. The entries asked about must
// come in path order.
func (w *EntryWalk) Shared(e Entry) (int, bool) {
	for ; w.j < len(w.other); w.j++ {
		// Equal strings that share their bytes compare without reading
		// them; an ordering comparison would read the common prefix.
		if p := w.other[w.j].Path; p == e.Path {
			if w.other[w.j] == e {
				return w.j, true
			}
			return -1, false
		} else if p > e.Path {
			break
		}
	}
	return -1, false
}
