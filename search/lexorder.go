package search

import "slices"

// mergeCopies merges into buf, the postings of visible first copies in
// row order, those of the copies whose places in m.rows are hits (their
// frequencies in m.slot, which it clears): a few hits sorted, more by a
// sweep of the places, in time linear in the copies.
func (m *copyMap) mergeCopies(buf []rowFreq, hits []int32) []rowFreq {
	out := slices.Grow(m.tmp[:0], len(buf)+len(hits))
	i := 0
	put := func(at int32) {
		r := m.rows[at]
		for i < len(buf) && buf[i].row < r {
			out = append(out, buf[i])
			i++
		}
		out = append(out, rowFreq{r, m.slot[at]})
		m.slot[at] = 0
	}
	if len(hits)*16 < len(m.rows) {
		slices.Sort(hits)
		for _, at := range hits {
			put(at)
		}
	} else {
		for at, f := range m.slot[:len(m.rows)] {
			if f != 0 {
				put(int32(at))
			}
		}
	}
	out = append(out, buf[i:]...)
	m.tmp = buf[:0] // the other buffer is the next call's scratch
	return out
}

// radixSort sorts a by key (at most maxKey), stably, 11 bits a pass, with
// tmp (as long as a) for scratch, and returns the sorted slice: a or tmp.
func radixSort[T any](a, tmp []T, key func(T) uint32, maxKey uint32) []T {
	for shift := uint(0); shift < 32 && maxKey>>shift != 0; shift += 11 {
		var count [1<<11 + 1]int
		for _, x := range a {
			count[(key(x)>>shift)&(1<<11-1)+1]++
		}
		for i := 1; i < len(count); i++ {
			count[i] += count[i-1]
		}
		for _, x := range a {
			d := (key(x) >> shift) & (1<<11 - 1)
			tmp[count[d]] = x
			count[d]++
		}
		a, tmp = tmp, a
	}
	return a
}
