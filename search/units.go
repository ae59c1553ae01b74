package search

import "github.com/bcindex/bcindex/chunk/vocab"

// Nested block chunks (a loop or a branch of a long function, named like
// if@L1225) are navigation: what a hit shows, what --kind block finds.
// They do not compete with whole definitions as answers: a block an arm
// scores counts for its enclosing definition, which takes the block's
// score when that is higher than its own, and the block leaves the arm's
// list. Its function then answers once, whole, instead of as several
// pieces that split the function's evidence and fill the top with one
// file.

// liftBlocks returns cs with each block row replaced by its enclosing
// definition (the nearest ancestor that is not a block), one entry per
// definition at the best score of it and its blocks, sorted. A block
// whose definition the view does not show (--kind block) stays.
func (v *view) liftBlocks(cs []cand) []cand {
	out := make([]cand, 0, len(cs))
	at := make(map[[2]int]int, len(cs))
	for _, c := range cs {
		seg := v.snap.Segments[c.seg]
		owner := c.row
		for r := seg.Row(owner); r.Kind == vocab.KindBlock && r.Parent >= 0; r = seg.Row(owner) {
			owner = r.Parent
		}
		if owner != c.row && !v.allow[c.seg].Test(uint(owner)) {
			owner = c.row
		}
		k := [2]int{c.seg, owner}
		if i, ok := at[k]; ok {
			if c.score > out[i].score {
				out[i].score = c.score
			}
			out[i].held = max(out[i].held, c.held)
			continue
		}
		if owner != c.row {
			c.row, c.key = owner, v.rowKey(c.seg, owner)
		}
		at[k] = len(out)
		out = append(out, c)
	}
	sortCands(out)
	return out
}
