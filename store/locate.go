package store

import (
	"bytes"
	"encoding/binary"
	"math/bits"

	"github.com/go-git/go-git/v5/plumbing"
)

// locateSorted finds the rows of blobs (repeats allowed) in the snapshot,
// as FindBlob would for each: locs[i] for blobs[i], from the newest segment
// that holds it, Seg -1 where none does. want[i] false leaves locs[i] at
// Seg -1 unlooked. It sorts the blobs once and walks each segment's sorted
// blob table beside them, newest first, with the blobs no segment has
// matched yet: sequential reads of both, where a lookup per blob and
// segment reads memory at random.
func (s *Snapshot) locateSorted(blobs []plumbing.Hash, want func(i int) bool) []BlobLoc {
	locs := make([]BlobLoc, len(blobs))
	todo := make([]int32, 0, len(blobs))
	for i := range blobs {
		locs[i].Seg = -1
		if want(i) {
			todo = append(todo, int32(i))
		}
	}
	sortByBlob(todo, blobs)
	for si := len(s.Segments) - 1; si >= 0 && len(todo) > 0; si-- {
		t := s.Segments[si].Table
		left := todo[:0]
		a, b := 0, 0
		for a < len(todo) {
			if b >= t.Nblobs {
				left = append(left, todo[a:]...)
				break
			}
			sha := blobs[todo[a]][:]
			switch c := compareBlob(sha, t.BlobKey(b)); {
			case c < 0:
				left = append(left, todo[a])
				a++
			case c > 0:
				b++
			default:
				first, n := t.BlobRange(b)
				for ; a < len(todo) && bytes.Equal(blobs[todo[a]][:], sha); a++ {
					locs[todo[a]] = BlobLoc{Seg: si, First: first, N: n, Blob: b}
				}
				b++
			}
		}
		todo = left
	}
	return locs
}

// compareBlob orders SHAs as bytes, comparing their first eight bytes as
// one number first.
func compareBlob(x, y []byte) int {
	kx, ky := binary.BigEndian.Uint64(x), binary.BigEndian.Uint64(y)
	switch {
	case kx < ky:
		return -1
	case kx > ky:
		return 1
	}
	return bytes.Compare(x[8:20], y[8:20])
}

// sortByBlob sorts the indexes idx by blobs[idx] (bytes order): a
// counting sort on the SHAs' leading bits, uniformly spread, into about
// one bucket per element, then an insertion sort within each bucket.
func sortByBlob(idx []int32, blobs []plumbing.Hash) {
	n := len(idx)
	if n < 2 {
		return
	}
	shift := 64 - min(20, max(4, bits.Len(uint(n))))
	bucket := func(i int32) int { return int(binary.BigEndian.Uint64(blobs[i][:]) >> shift) }
	start := make([]int32, 1<<(64-shift)+1)
	for _, i := range idx {
		start[bucket(i)+1]++
	}
	for b := 1; b < len(start); b++ {
		start[b] += start[b-1]
	}
	out := make([]int32, n)
	next := append([]int32(nil), start[:len(start)-1]...)
	for _, i := range idx {
		b := bucket(i)
		out[next[b]] = i
		next[b]++
	}
	for b := 0; b+1 < len(start); b++ {
		s := out[start[b]:start[b+1]]
		for j := 1; j < len(s); j++ {
			for k := j; k > 0 && compareBlob(blobs[s[k]][:], blobs[s[k-1]][:]) < 0; k-- {
				s[k], s[k-1] = s[k-1], s[k]
			}
		}
	}
	copy(idx, out)
}
