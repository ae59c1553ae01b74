package vector

import "runtime/debug"

// Row returns a copy of row i's quantised vector and its scale; q is nil
// (and scale 0) for a row without a vector or out of range. A scale that is
// not a positive finite number (possible only in a corrupt file) counts as
// no vector, as in Search, and so does a row that could not be read: use
// RowErr where that must not pass for a row without vector.
func (s *Segment) Row(i int) (q []int8, scale float32) {
	q, scale, _ = s.RowErr(i)
	return q, scale
}

// RowErr is Row that returns ErrFault when the mapped row could not be
// read (its file was truncated under the mapping).
func (s *Segment) RowErr(i int) (q []int8, scale float32, err error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.rowVec != nil {
		if i < 0 || i >= len(s.rowVec) {
			return nil, 0, nil
		}
		i = int(s.rowVec[i])
	}
	if s.parts == nil || i < 0 || i >= s.rows {
		return nil, 0, nil
	}
	func() {
		defer guardFault(debug.SetPanicOnFault(true), &err)
		p := s.partOf(i)
		r := i - p.base
		if r < 0 || !usableScale(p.scales[r]) {
			return
		}
		q, scale = append([]int8(nil), p.vecs[r*s.dim:(r+1)*s.dim]...), p.scales[r]
	}()
	if err != nil {
		return nil, 0, err
	}
	return q, scale, nil
}

// HasVector reports whether stored row i (MapRows aside) holds a vector:
// its scale is usable. A row that cannot be read holds none.
func (s *Segment) HasVector(i int) (ok bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.parts == nil || i < 0 || i >= s.rows {
		return false
	}
	var err error
	func() {
		defer guardFault(debug.SetPanicOnFault(true), &err)
		p := s.partOf(i)
		ok = i >= p.base && usableScale(p.scales[i-p.base])
	}()
	return ok && err == nil
}
