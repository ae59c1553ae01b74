package vector

import "runtime/debug"

// Row returns a copy of row i's quantised vector and its scale; q is nil
// (and scale 0) for a row without a vector or out of range. Used to copy
// rows when segments are merged. A scale that is not a positive finite number
// (possible only in a corrupt file) counts as no vector, as in Search, and
// so does a row that could not be read (ErrFault).
func (s *Segment) Row(i int) (q []int8, scale float32) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.parts == nil || i < 0 || i >= s.rows {
		return nil, 0
	}
	var err error
	func() {
		defer guardFault(debug.SetPanicOnFault(true), &err)
		p := s.partOf(i)
		r := i - p.base
		if !usableScale(p.scales[r]) {
			return
		}
		q, scale = append([]int8(nil), p.vecs[r*s.dim:(r+1)*s.dim]...), p.scales[r]
	}()
	if err != nil {
		return nil, 0
	}
	return q, scale
}
