package vector

// Row returns a copy of row i's quantised vector and its scale; q is nil
// (and scale 0) for a row without a vector or out of range. Used to copy
// rows when segments are merged. A scale that is not a positive finite number
// (possible only in a corrupt file) counts as no vector, as in Search.
func (s *Segment) Row(i int) (q []int8, scale float32) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.data == nil || i < 0 || i >= s.rows || !usableScale(s.scales[i]) {
		return nil, 0
	}
	return append([]int8(nil), s.vecs[i*s.dim:(i+1)*s.dim]...), s.scales[i]
}
