package ngram

import (
	"encoding/binary"
	"slices"
)

// sigHashes is how many min-hashes make a document's signature.
const sigHashes = 8

// docOrder returns each document's number in the file: the documents
// sorted by the min-hash signatures of their trigram sets, so that sets
// that are nearly the same (the versions of a file, which a history's
// segments hold many of) get neighbouring numbers and their trigrams'
// postings become runs (appendRuns). Two sets share a min-hash with the
// probability of their Jaccard similarity, and the sort is lexicographic
// over eight of them, so near-identical sets share a long prefix. A
// blob's pieces keep following its document, in their order. Ties keep
// the order documents were added in, so the file depends on its contents
// only.
func (w *Writer) docOrder() []uint32 {
	n := len(w.shas)
	sig := make([][sigHashes]uint64, n)
	for d := range sig {
		for k := range sig[d] {
			sig[d][k] = ^uint64(0)
		}
	}
	var h [sigHashes]uint64
	for i := range w.lists {
		l := &w.lists[i]
		for k := range h {
			h[k] = mix(uint64(l.gram) + uint64(k+1)*0x9e3779b97f4a7c15)
		}
		b := l.buf
		d := int64(-1)
		for len(b) > 0 {
			v, m := binary.Uvarint(b)
			b = b[m:]
			d += 1 + int64(v)
			s := &sig[d]
			for k := range h {
				s[k] = min(s[k], h[k])
			}
		}
	}
	// Each blob's document leads its pieces; the groups are sorted.
	var groups []uint32 // first document of each group
	for d := 0; d < n; d++ {
		if d == 0 || !w.piece[d] {
			groups = append(groups, uint32(d))
		}
	}
	slices.SortStableFunc(groups, func(a, b uint32) int {
		sa, sb := &sig[a], &sig[b]
		for k := range sa {
			if sa[k] != sb[k] {
				if sa[k] < sb[k] {
					return -1
				}
				return 1
			}
		}
		return 0
	})
	newDoc := make([]uint32, n)
	next := uint32(0)
	for _, g := range groups {
		for d := int(g); d < n && (d == int(g) || w.piece[d]); d++ {
			newDoc[d] = next
			next++
		}
	}
	return newDoc
}

// mix is SplitMix64's finalizer.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}
