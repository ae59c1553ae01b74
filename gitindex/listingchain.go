package gitindex

import "sort"

// resolved is a listing as a chain of deltas gives it: the listing its
// chain starts from, stored in full (root), and what the deltas change
// in it (ops, by path); chain counts the listings of the chain, root
// included.
type resolved struct {
	root  *Listing
	ops   []listingOp
	chain int
}

// listingOp sets the entry at a path, or removes it (gone).
type listingOp struct {
	e    Entry
	gone bool
}

// compose returns r with the deltas of stack, the newest first, applied
// over it: of the changes to one path, the newest counts.
func (r *resolved) compose(stack []*packRecord) *resolved {
	if len(stack) == 0 {
		return r
	}
	seen := map[string]bool{}
	var top []listingOp
	for _, rec := range stack {
		for _, p := range rec.gone {
			if !seen[p] {
				seen[p] = true
				top = append(top, listingOp{e: Entry{Path: p}, gone: true})
			}
		}
		for _, e := range rec.entries {
			if !seen[e.Path] {
				seen[e.Path] = true
				top = append(top, listingOp{e: e})
			}
		}
	}
	sort.Slice(top, func(i, j int) bool { return top[i].e.Path < top[j].e.Path })
	ops := make([]listingOp, 0, len(r.ops)+len(top))
	old := r.ops
	for _, o := range top {
		for len(old) > 0 && old[0].e.Path < o.e.Path {
			ops, old = append(ops, old[0]), old[1:]
		}
		if len(old) > 0 && old[0].e.Path == o.e.Path {
			old = old[1:]
		}
		ops = append(ops, o)
	}
	ops = append(ops, old...)
	return &resolved{root: r.root, ops: ops, chain: r.chain + len(stack)}
}

// against returns how the listing differs from its root: the root's
// paths it lacks, and its entries the root lacks or holds otherwise,
// both by path.
func (r *resolved) against() (gone []string, changed []Entry) {
	es := r.root.Entries
	at := 0
	for _, o := range r.ops {
		i, ok := findPath(es, at, o.e.Path)
		at = i
		switch {
		case o.gone:
			if ok {
				gone = append(gone, o.e.Path)
			}
		case !ok || es[i] != o.e:
			changed = append(changed, o.e)
		}
	}
	return gone, changed
}
