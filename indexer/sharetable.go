package indexer

import (
	"encoding/binary"
	"slices"
)

// shareIndex maps content hashes to where a live segment stores their
// vector, as one array sorted by hash and searched by halving: 24 bytes a
// content, where a Go map of the same entries took 35–70 (its groups'
// control words and free slots, up to twice the slots after it grew). On
// git's whole first-parent history it holds about 1.2 million contents.
// A segment's contents are added at once (addAll), merged into the array
// in place from its end.
type shareIndex []shareEntry

// shareEntry is one content's hash, as two big-endian halves (so that
// comparing the halves orders entries as the bytes do), and its place.
type shareEntry struct {
	hi, lo uint64
	at     sharedAt
}

func entryKey(h [16]byte) (hi, lo uint64) {
	return binary.BigEndian.Uint64(h[:8]), binary.BigEndian.Uint64(h[8:])
}

func compareEntry(e shareEntry, hi, lo uint64) int {
	switch {
	case e.hi < hi:
		return -1
	case e.hi > hi:
		return 1
	case e.lo < lo:
		return -1
	case e.lo > lo:
		return 1
	}
	return 0
}

// get returns where content h's vector is.
func (x shareIndex) get(h [16]byte) (sharedAt, bool) {
	hi, lo := entryKey(h)
	i, ok := slices.BinarySearchFunc(x, hi, func(e shareEntry, _ uint64) int { return compareEntry(e, hi, lo) })
	if !ok {
		return sharedAt{}, false
	}
	return x[i].at, true
}

// has reports whether the index holds content h.
func (x shareIndex) has(h [16]byte) bool {
	_, ok := x.get(h)
	return ok
}

// addAll adds the entries of add whose hash the index does not hold yet:
// of several with the same hash, the first in add (as a map filled in
// add's order that keeps a key's first value). add is reordered.
func (x shareIndex) addAll(add []shareEntry) shareIndex {
	slices.SortStableFunc(add, func(a, b shareEntry) int { return compareEntry(a, b.hi, b.lo) })
	n := 0
	var prev shareEntry
	for i, e := range add {
		dup := i > 0 && compareEntry(e, prev.hi, prev.lo) == 0
		prev = e
		if !dup && !x.has(keyHash(e)) {
			add[n] = e
			n++
		}
	}
	add = add[:n]
	if n == 0 {
		return x
	}
	// Merge from the ends, into the array grown by n: no entry of x is
	// overwritten before it is moved.
	old := len(x)
	x = slices.Grow(x, n)[:old+n]
	i, j := old-1, n-1
	for k := old + n - 1; j >= 0; k-- {
		if i >= 0 && compareEntry(x[i], add[j].hi, add[j].lo) > 0 {
			x[k] = x[i]
			i--
		} else {
			x[k] = add[j]
			j--
		}
	}
	return x
}

func keyHash(e shareEntry) [16]byte {
	var h [16]byte
	binary.BigEndian.PutUint64(h[:8], e.hi)
	binary.BigEndian.PutUint64(h[8:], e.lo)
	return h
}
