package gitindex

import "strings"

// resolved is a listing as a chain of deltas gives it: the listing its
// chain starts from, stored in full (root), and what the deltas change
// in it (ops, by path); chain counts the listings of the chain, root
// included.
type resolved struct {
	root  *Listing
	ops   []listingOp
	chain int
}

// listingOp sets the entry at path to *e, or removes it (e nil). It
// points into the delta it comes from: a chain's changes are merged many
// times, and a pointer is an eighth of an entry to copy.
type listingOp struct {
	path string
	e    *Entry
}

// compose returns r with the deltas of stack, the newest first, applied
// over it: of the changes to one path, the newest counts. Each delta's
// changes are in path order: they are merged in pairs, newer over older,
// so that a chain of k deltas costs its changes times log k.
func (r *resolved) compose(stack []*packRecord) *resolved {
	if len(stack) == 0 {
		return r
	}
	return &resolved{root: r.root, ops: mergeOps(chainOps(stack), r.ops), chain: r.chain + len(stack)}
}

// chainOps returns the changes of the deltas of stack, the newest first,
// in path order, the newest change of each path.
func chainOps(stack []*packRecord) []listingOp {
	if len(stack) > 1 {
		mid := len(stack) / 2
		return mergeOps(chainOps(stack[:mid]), chainOps(stack[mid:]))
	}
	rec := stack[0]
	ops := make([]listingOp, 0, len(rec.gone)+len(rec.entries))
	gone, es := rec.gone, rec.entries
	for len(gone) > 0 || len(es) > 0 {
		if len(es) == 0 || len(gone) > 0 && gone[0] < es[0].Path {
			ops, gone = append(ops, listingOp{path: gone[0]}), gone[1:]
		} else {
			ops, es = append(ops, listingOp{path: es[0].Path, e: &es[0]}), es[1:]
		}
	}
	return ops
}

// mergeOps merges two lists of changes in path order; of a path in both,
// newer's change counts.
func mergeOps(newer, older []listingOp) []listingOp {
	if len(older) == 0 {
		return newer
	}
	if len(newer) == 0 {
		return older
	}
	out := make([]listingOp, 0, len(newer)+len(older))
	for len(newer) > 0 && len(older) > 0 {
		switch c := strings.Compare(newer[0].path, older[0].path); {
		case c < 0:
			out, newer = append(out, newer[0]), newer[1:]
		case c > 0:
			out, older = append(out, older[0]), older[1:]
		default:
			out, newer, older = append(out, newer[0]), newer[1:], older[1:]
		}
	}
	out = append(out, newer...)
	return append(out, older...)
}

// against returns how the listing differs from its root: the root's
// paths it lacks, and its entries the root lacks or holds otherwise,
// both by path.
func (r *resolved) against() (gone []string, changed []Entry) {
	es := r.root.Entries
	at := 0
	for _, o := range r.ops {
		i, ok := findPath(es, at, o.path)
		at = i
		switch {
		case o.e == nil:
			if ok {
				gone = append(gone, o.path)
			}
		case !ok || es[i] != *o.e:
			changed = append(changed, *o.e)
		}
	}
	return gone, changed
}
