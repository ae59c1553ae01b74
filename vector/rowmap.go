package vector

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/bits-and-blooms/bitset"
)

// MapRows makes the segment answer for rows that share stored vectors:
// rowVec[r] is the stored row holding row r's vector, -1 when r has none.
// A segment that stores one vector per distinct content maps its table's
// rows this way; Len, Row, RowErr and Search then speak of those rows.
// It is called once, before the segment is shared.
func (s *Segment) MapRows(rowVec []int32) error {
	for r, v := range rowVec {
		if v < -1 || int(v) >= s.rows {
			return fmt.Errorf("row %d maps to stored row %d of %d", r, v, s.rows)
		}
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
func (s *Segment) searchMapped(dot kernel, query []float32, k int, allow *bitset.BitSet) ([]Hit, error) {
	if k <= 0 {
		return nil, nil
	}
	n := len(s.rowVec)
	if allow != nil {
		n = int(min(allow.Len(), uint(n)))
	}
	rows := func(visit func(r int, v int32)) {
		if allow == nil {
			for r := 0; r < n; r++ {
				if v := s.rowVec[r]; v >= 0 {
					visit(r, v)
				}
			}
			return
		}
		for r, ok := allow.NextSet(0); ok && int(r) < n; r, ok = allow.NextSet(r + 1) {
			if v := s.rowVec[r]; v >= 0 {
				visit(int(r), v)
			}
		}
	}
	stored := bitset.New(uint(s.rows))
	rows(func(_ int, v int32) { stored.Set(uint(v)) })
	if stored.None() {
		return nil, nil
	}
	hits, err := s.search(dot, query, k, stored)
	if err != nil || len(hits) == 0 {
		return nil, err
	}
	score := make(map[int32]float32, len(hits))
	best := bitset.New(uint(s.rows))
	for _, h := range hits {
		score[int32(h.Row)] = h.Score
		best.Set(uint(h.Row))
	}
	var out []Hit
	rows(func(r int, v int32) {
		if best.Test(uint(v)) {
			out = append(out, Hit{Row: r, Score: score[v]})
		}
	})
	slices.SortFunc(out, func(a, b Hit) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.Row, b.Row)
	})
	return out[:min(k, len(out))], nil
}
