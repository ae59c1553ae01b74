package search

import (
	"cmp"
	"encoding/binary"
	"slices"

	"github.com/bits-and-blooms/bitset"
)

// distinctContent leaves one visible row per chunk content. Releases of a
// project hold the same function in many versions of its file (other
// functions of the file changed); ranked as they are, the copies would
// fill each arm's candidates with one chunk many times over and skew
// BM25's document frequencies, and the work would grow with the number of
// revisions instead of with their distinct content.
//
// The copy that stays is the one in the first listing by v.treeRank (then
// by path and row), so a search gives the same hits every time, however
// the index is cut into segments. Within a segment the copies column
// names each row's first copy, so a row costs a 4-byte read; the rows
// left are then compared by content hash across segments. Rows without
// text of their own stay.
func (v *view) distinctContent() {
	order := v.blobOrder()
	segs := map[int]bool{}
	seen := make([]*bitset.BitSet, len(v.snap.Segments))
	for _, b := range order {
		segs[b.seg] = true
		seg, allow := v.snap.Segments[b.seg], v.allow[b.seg]
		if seen[b.seg] == nil {
			seen[b.seg] = bitset.New(uint(seg.Rows()))
		}
		for r := b.first; r < b.first+b.n; r++ {
			if !allow.Test(uint(r)) {
				continue
			}
			if c := seg.FirstCopy(r); seen[b.seg].Test(uint(c)) {
				allow.Clear(uint(r))
			} else {
				seen[b.seg].Set(uint(c))
			}
		}
	}
	if len(segs) < 2 {
		return
	}
	// Across segments the rows left are compared by hash, in the same
	// order: one row per content whether the copies share a segment or
	// not, so the rows ranked (and BM25's statistics) do not depend on
	// how the index is cut into segments. A row is hashed once per
	// distinct content of its segment (the copies were cleared above).
	var set hashSet16
	set.reset(1024)
	for _, b := range order {
		seg, allow := v.snap.Segments[b.seg], v.allow[b.seg]
		for r := b.first; r < b.first+b.n; r++ {
			if !allow.Test(uint(r)) {
				continue
			}
			if h, indexed := seg.RowHash(r); indexed && h != ([16]byte{}) && !set.add(h) {
				allow.Clear(uint(r))
			}
		}
	}
}

// blobRef is a visible blob, by segment and first row.
type blobRef struct {
	seg, first, n, tree int
	path                string
}

// blobOrder lists the view's blobs by the rank of the first listing
// holding them, then path: the order they were added in, the listings
// reordered by rank (a listing's entries come sorted by path, and a blob
// is added once, under its first listing and path).
func (v *view) blobOrder() []blobRef {
	order := slices.Clone(v.added)
	if v.treeRank != nil {
		for i := range order {
			order[i].tree = v.treeRank[order[i].tree]
		}
		slices.SortStableFunc(order, func(a, b blobRef) int { return cmp.Compare(a.tree, b.tree) })
	}
	return order
}

// rowsWithContent calls visit for every row of the view's blobs (visible
// or not) whose content hash is one of targets. The copies column says
// which rows repeat a content, so a hash is read once per distinct content
// of a segment. A bit per value of a hash's first two
// bytes (8 KB, in L1) turns away all but ~len(targets)/65536 of the
// hashes before the map is asked: a map lookup per distinct content cost
// more than reading the hashes.
func (v *view) rowsWithContent(targets map[[16]byte][]int, visit func(seg, row int, is []int)) {
	if len(targets) == 0 {
		return
	}
	var maybe [1 << 16 / 64]uint64
	bit := func(h [16]byte) (int, uint64) { k := int(h[0]) | int(h[1])<<8; return k / 64, 1 << (k % 64) }
	for h := range targets {
		w, m := bit(h)
		maybe[w] |= m
	}
	lookup := func(seg, r int) []int {
		h, indexed := v.snap.Segments[seg].RowHash(r)
		if w, m := bit(h); !indexed || maybe[w]&m == 0 {
			return nil
		}
		return targets[h]
	}
	checked := make([]*bitset.BitSet, len(v.snap.Segments))
	matched := make([]*bitset.BitSet, len(v.snap.Segments))
	for _, b := range v.added {
		s, seg := b.seg, v.snap.Segments[b.seg]
		for r := b.first; r < b.first+b.n; r++ {
			c := seg.FirstCopy(r)
			if checked[s] == nil {
				checked[s], matched[s] = bitset.New(uint(seg.Rows())), bitset.New(uint(seg.Rows()))
			}
			if !checked[s].Test(uint(c)) {
				checked[s].Set(uint(c))
				if lookup(s, c) != nil {
					matched[s].Set(uint(c))
				}
			}
			if matched[s].Test(uint(c)) {
				visit(s, r, lookup(s, c))
			}
		}
	}
}

// hashSet16 is a set of content hashes with open addressing: the hashes
// are uniformly random already, so their first bytes index the table.
type hashSet16 struct {
	keys [][2]uint64
	n    int
}

// reset empties the set, sized for about n keys (it grows as needed).
func (s *hashSet16) reset(n int) {
	size := 64
	for size < 2*n {
		size *= 2
	}
	if cap(s.keys) >= size {
		s.keys = s.keys[:size]
		clear(s.keys)
	} else {
		s.keys = make([][2]uint64, size)
	}
	s.n = 0
}

// add adds a non-zero hash and reports whether it was new.
func (s *hashSet16) add(h [16]byte) bool {
	if 2*(s.n+1) > len(s.keys) {
		old := s.keys
		s.keys, s.n = make([][2]uint64, 2*len(old)), 0
		for _, k := range old {
			if k != ([2]uint64{}) {
				s.insert(k)
			}
		}
	}
	return s.insert([2]uint64{binary.LittleEndian.Uint64(h[:8]), binary.LittleEndian.Uint64(h[8:])})
}

func (s *hashSet16) insert(k [2]uint64) bool {
	mask := uint64(len(s.keys) - 1)
	for i := k[0] & mask; ; i = (i + 1) & mask {
		switch s.keys[i] {
		case k:
			return false
		case [2]uint64{}:
			s.keys[i] = k
			s.n++
			return true
		}
	}
}
