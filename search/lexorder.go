package search

import (
	"cmp"
	"slices"
)

// order sorts postings of distinct rows by row: a few by comparison,
// more by radix, in time linear in their number.
func (m *copyMap) order(buf []rowFreq) []rowFreq {
	if len(buf) <= 256 {
		slices.SortFunc(buf, func(a, b rowFreq) int { return cmp.Compare(a.row, b.row) })
		return buf
	}
	if cap(m.tmp) < len(buf) {
		m.tmp = make([]rowFreq, len(buf))
	}
	out := radixSort(buf, m.tmp[:len(buf)], func(p rowFreq) uint32 { return uint32(p.row) }, uint32(m.seg.Rows()))
	if &out[0] != &buf[0] {
		m.tmp = buf[:cap(buf)] // the other buffer is the next call's scratch
	}
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
