package store

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

// TestSortByBlob: the counting sort orders indexes by their SHAs' bytes,
// repeats and SHAs sharing their first eight bytes included, for sizes
// from one to many per bucket.
func TestSortByBlob(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 2, 3, 17, 1000, 70000} {
		blobs := make([]plumbing.Hash, n)
		for i := range blobs {
			for j := range blobs[i] {
				blobs[i][j] = byte(rng.UintN(256))
			}
			switch {
			case i > 0 && i%7 == 0:
				blobs[i] = blobs[i-1] // a repeat
			case i > 0 && i%11 == 0:
				copy(blobs[i][:8], blobs[i-1][:8]) // same leading bytes
			}
		}
		idx := make([]int32, n)
		for i := range idx {
			idx[i] = int32(i)
		}
		rng.Shuffle(n, func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
		sortByBlob(idx, blobs)
		seen := make([]bool, n)
		for k, i := range idx {
			if seen[i] {
				t.Fatalf("n=%d: index %d twice", n, i)
			}
			seen[i] = true
			if k > 0 && bytes.Compare(blobs[idx[k-1]][:], blobs[i][:]) > 0 {
				t.Fatalf("n=%d: %x before %x at %d", n, blobs[idx[k-1]], blobs[i], k)
			}
		}
		if slices.Contains(seen, false) {
			t.Fatalf("n=%d: an index was lost", n)
		}
	}
}
