package storewrite

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"sort"

	"github.com/bcindex/bcindex/segment"
)

// Which rows of the parts the live locators name are used, and the
// locators rewritten for compacted parts (compact.go).

// vectorNames are the vector files the segments ids have.
func vectorNames(indexDir string, ids []string) []string {
	var out []string
	for _, id := range ids {
		names, _ := segment.VectorFiles(indexDir, id)
		for _, n := range names {
			if !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	slices.Sort(out)
	return out
}

// readLocators reads the segments' locators of the named vector file (nil
// for a segment without it); false when one cannot be read.
func readLocators(indexDir string, ids []string, name string) ([]*segment.Locator, bool) {
	locs := make([]*segment.Locator, len(ids))
	for i, id := range ids {
		l, err := segment.ReadLocator(segment.File(indexDir, id, name))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, false
		}
		locs[i] = l
	}
	return locs, true
}

// partBases are the first stored rows of parts (package vector's
// OpenRegions: each at the next multiple of 64).
func partBases(parts []segment.PartLoc) []int {
	bases := make([]int, len(parts))
	n := 0
	for i, p := range parts {
		bases[i] = (n + 63) &^ 63
		n = bases[i] + p.Rows
	}
	return bases
}

// slotPart finds the part (index) and row in it of stored row slot; false
// when it lies in none.
func slotPart(parts []segment.PartLoc, bases []int, slot int) (int, int, bool) {
	i := sort.Search(len(bases), func(k int) bool { return bases[k] > slot }) - 1
	if i < 0 || slot-bases[i] >= parts[i].Rows {
		return 0, 0, false
	}
	return i, slot - bases[i], true
}

// slotOf is content c's stored row in l.
func slotOf(l *segment.Locator, c int) int {
	if l.Slots != nil {
		return int(l.Slots[c])
	}
	return c
}

// partUses marks the rows of each named part that the locators' slots
// use; false when two locators disagree on a part, or a slot lies in no
// part (a damaged locator: nothing is compacted then).
func partUses(locs []*segment.Locator) (map[partRef]*partUse, bool) {
	uses := map[partRef]*partUse{}
	for _, l := range locs {
		if l == nil {
			continue
		}
		for _, p := range l.Parts {
			ref := partRef{p.Owner, p.Part}
			if u := uses[ref]; u == nil {
				uses[ref] = &partUse{loc: p, used: make([]uint64, (p.Rows+63)/64)}
			} else if u.loc.Rows != p.Rows || u.loc.Len != p.Len {
				return nil, false
			}
		}
		bases := partBases(l.Parts)
		for c := 0; c < l.Rows; c++ {
			i, r, ok := slotPart(l.Parts, bases, slotOf(l, c))
			if !ok {
				return nil, false
			}
			u := uses[partRef{l.Parts[i].Owner, l.Parts[i].Part}]
			if w, bit := &u.used[r>>6], uint64(1)<<(uint(r)&63); *w&bit == 0 {
				*w |= bit
				u.n++
			}
		}
	}
	return uses, true
}

// repoint is locator l with the moved parts replaced by their rewrites
// (a rewrite of no rows is left out) and its slots renumbered.
func repoint(l *segment.Locator, moved map[partRef]*movedPart) (*segment.Locator, error) {
	var parts []segment.PartLoc
	index := make([]int, len(l.Parts)) // old part → new part, or -1
	for k, p := range l.Parts {
		if mp := moved[partRef{p.Owner, p.Part}]; mp != nil {
			if mp.loc.Rows == 0 {
				index[k] = -1
				continue
			}
			p = mp.loc
		}
		index[k] = len(parts)
		parts = append(parts, p)
	}
	oldBases, newBases := partBases(l.Parts), partBases(parts)
	slots := make([]uint32, l.Rows)
	for c := range slots {
		i, r, ok := slotPart(l.Parts, oldBases, slotOf(l, c))
		if !ok {
			return nil, fmt.Errorf("vector %d lies in no part", slotOf(l, c))
		}
		if mp := moved[partRef{l.Parts[i].Owner, l.Parts[i].Part}]; mp != nil {
			r = int(mp.remap[r])
		}
		if index[i] < 0 || r < 0 {
			return nil, fmt.Errorf("vector %d of part %d dropped while named", r, l.Parts[i].Part)
		}
		slots[c] = uint32(newBases[index[i]] + r)
	}
	return &segment.Locator{Dim: l.Dim, Rows: l.Rows, Parts: parts, Slots: slots}, nil
}
