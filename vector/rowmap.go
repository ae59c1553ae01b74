package vector

import (
	"cmp"
	"fmt"
	"math/bits"
	"slices"
	"sync"

	"github.com/bits-and-blooms/bitset"
)

// MapRows makes the segment answer for rows that share stored vectors:
// rowVec[r] is the stored row holding row r's vector, -1 when r has none.
// A segment that stores one vector per distinct content maps its table's
// rows this way; Len, Row, RowErr and Search then speak of those rows.
// It is called once, before the segment is shared.
func (s *Segment) MapRows(rowVec []int32) error {
	if !s.gaps {
		for r, v := range rowVec {
			if v < -1 || int(v) >= s.rows {
				return fmt.Errorf("row %d maps to stored row %d of %d", r, v, s.rows)
			}
		}
		s.rowVec = rowVec
		return nil
	}
	// The stored rows in parts, a bit each: one test a row.
	in := make([]uint64, (s.rows+63)/64)
	for _, p := range s.parts {
		for b := p.base / 64; b*64 < p.base+p.rows; b++ {
			in[b] = 1<<min(64, p.base+p.rows-b*64) - 1
		}
	}
	for r, v := range rowVec {
		if v >= 0 && int(v) < s.rows && in[v>>6]&(1<<(uint(v)&63)) != 0 || v == -1 {
			continue
		}
		if v < -1 || int(v) >= s.rows {
			return fmt.Errorf("row %d maps to stored row %d of %d", r, v, s.rows)
		}
		return fmt.Errorf("row %d maps to stored row %d, in the gap before a part", r, v)
	}
	s.rowVec = rowVec
	return nil
}

// Stored is the number of stored rows, which a search scans.
func (s *Segment) Stored() int { return s.rows }

// searchMapped is search over mapped rows: it scans each stored vector of
// an allowed row once, then gives each of the k best its allowed rows,
// ordered as Search orders rows (score, then row). Rows that share a
// vector score the same, so the k best rows are among the rows of the k
// best vectors.
func (s *Segment) searchMapped(dot kernel, query []float32, k, depth int, allow *bitset.BitSet) ([]Hit, error) {
	if k <= 0 {
		return nil, nil
	}
	n := len(s.rowVec)
	if allow != nil {
		n = int(min(allow.Len(), uint(n)))
	}
	set := s.storedOf(allow, n)
	if set.stored == nil {
		return nil, nil
	}
	hits, err := s.searchDepth(dot, query, k, depth, set.stored)
	if err != nil || len(hits) == 0 {
		return nil, err
	}
	return s.rowsOf(hits, k, allow, n), nil
}

// storedSet is the stored rows that a search allowing rows [0, n) of
// allow (all of them when all) scans: nil when there are none.
type storedSet struct {
	all    bool
	n      int
	allow  []uint64 // allow's words below n, the last masked to n
	stored *bitset.BitSet
}

// storedOf returns the stored rows of the rows below n that allow allows
// (nil: every row). A search that allows the rows the previous one
// allowed, as every query on a kept view of one revision does, takes
// them as they were; otherwise they are computed, a word of allow at a
// time, and kept in their place.
func (s *Segment) storedOf(allow *bitset.BitSet, n int) *storedSet {
	var aw []uint64
	if allow != nil {
		aw = allow.Words()
	}
	if kept := s.allowed.Load(); kept != nil && kept.all == (allow == nil) && kept.n == n && (kept.all || sameWords(kept.allow, aw, n)) {
		return kept
	}
	set := &storedSet{all: allow == nil, n: n}
	words := make([]uint64, (s.rows+63)/64)
	none := true
	mark := func(v int32) {
		if v >= 0 {
			words[v>>6] |= 1 << (uint(v) & 63)
			none = false
		}
	}
	if allow == nil {
		for _, v := range s.rowVec[:n] {
			mark(v)
		}
	} else {
		set.allow = make([]uint64, (n+63)/64)
		for i := range set.allow {
			w := maskedWord(aw, i, n)
			set.allow[i] = w
			for ; w != 0; w &= w - 1 {
				mark(s.rowVec[i*64+bits.TrailingZeros64(w)])
			}
		}
	}
	if !none {
		set.stored = bitset.From(words)
	}
	s.allowed.Store(set)
	return set
}

// maskedWord is word i of w (0 past its end) without the bits at or past n.
func maskedWord(w []uint64, i, n int) uint64 {
	if i >= len(w) {
		return 0
	}
	x := w[i]
	if end := (i + 1) * 64; end > n {
		x &= 1<<(uint(n)&63) - 1
	}
	return x
}

// sameWords reports whether kept (allow words made by storedOf) holds
// the bits below n of w.
func sameWords(kept, w []uint64, n int) bool {
	for i := range kept {
		if kept[i] != maskedWord(w, i, n) {
			return false
		}
	}
	return true
}

// winners holds zeroed bitsets over stored rows for rowsOf to mark the
// best vectors in; it clears the bits it set before putting one back.
var winners sync.Pool

// rowsOf gives the best stored vectors, hits, their rows below n that
// allow allows (nil: every row), the best k of them first: one pass
// over the row map, testing each row's vector against a bitset of the
// hits.
func (s *Segment) rowsOf(hits []Hit, k int, allow *bitset.BitSet, n int) []Hit {
	nw := (s.rows + 63) / 64
	var best []uint64
	if p, _ := winners.Get().(*[]uint64); p != nil && len(*p) >= nw {
		best = *p
	} else {
		best = make([]uint64, nw)
	}
	for _, h := range hits {
		best[h.Row>>6] |= 1 << (uint(h.Row) & 63)
	}
	slices.SortFunc(hits, func(a, b Hit) int { return cmp.Compare(a.Row, b.Row) })
	var aw []uint64
	if allow != nil {
		aw = allow.Words()
	}
	out := make([]Hit, 0, len(hits))
	for r, v := range s.rowVec[:n] {
		if v < 0 || best[v>>6]&(1<<(uint(v)&63)) == 0 {
			continue
		}
		if allow != nil && (r>>6 >= len(aw) || aw[r>>6]&(1<<(uint(r)&63)) == 0) {
			continue
		}
		i, _ := slices.BinarySearchFunc(hits, int(v), func(h Hit, v int) int { return cmp.Compare(h.Row, v) })
		out = append(out, Hit{Row: r, Score: hits[i].Score})
	}
	for _, h := range hits {
		best[h.Row>>6] = 0
	}
	winners.Put(&best)
	slices.SortFunc(out, func(a, b Hit) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.Row, b.Row)
	})
	if len(out) == 0 {
		return nil
	}
	return out[:min(k, len(out))]
}
