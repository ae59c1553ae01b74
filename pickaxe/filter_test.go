package pickaxe

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/bcindex/bcindex/exact"
)

// randomGrams returns n distinct 24-bit trigrams, sorted.
func randomGrams(r *rand.Rand, n int) []uint32 {
	seen := map[uint32]bool{}
	var out []uint32
	for len(out) < n {
		g := r.Uint32() & 0xffffff
		if !seen[g] {
			seen[g] = true
			out = append(out, g)
		}
	}
	slices.Sort(out)
	return out
}

// TestFilterHoldsItsTrigrams checks that a filter never rules out a
// trigram it was made of, that its size follows the number of trigrams,
// and that it rules out most trigrams it was not made of.
func TestFilterHoldsItsTrigrams(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 3, 17, 100, 1000, 5000, 20000, 40000} {
		grams := randomGrams(r, n)
		f := newFilter(grams)
		want := min(max((filterBits*n+7)/8, filterMinBytes), filterMaxBytes)
		if len(f) != want {
			t.Errorf("%d trigrams: %d bytes, want %d", n, len(f), want)
		}
		for _, g := range grams {
			if !f.has(g) {
				t.Fatalf("%d trigrams: the filter rules out %06x, one of them", n, g)
			}
		}
		if n > 0 && !f.mayHold(&exact.Query{Op: exact.And, Trigrams: grams[:min(n, 8)]}) {
			t.Errorf("%d trigrams: the filter rules out a plan of its own trigrams", n)
		}
		in := map[uint32]bool{}
		for _, g := range grams {
			in[g] = true
		}
		passed, tried := 0, 0
		for tried < 20000 {
			g := r.Uint32() & 0xffffff
			if in[g] {
				continue
			}
			tried++
			if f.has(g) {
				passed++
			}
		}
		// Four bits and three probes a trigram: about one in seven
		// passes; a filter at its maximum size holds fewer bits each.
		limit := 0.2
		if n*filterBits > 8*filterMaxBytes {
			limit = 0.8
		}
		rate := float64(passed) / float64(tried)
		t.Logf("%d trigrams, %d bytes: %.3f of absent trigrams pass", n, len(f), rate)
		if rate > limit {
			t.Errorf("%d trigrams: %.3f of absent trigrams pass, want at most %.2f", n, rate, limit)
		}
	}
	if !filter(nil).has(42) || !filter(nil).mayHold(&exact.Query{Op: exact.And, Trigrams: []uint32{1}}) {
		t.Error("an empty filter rules something out")
	}
}

// newFilterV2 makes a filter of format 2 ("bcx2"), as that format's
// writer did.
func newFilterV2(grams []uint32) filterV2 {
	bits := 64
	for bits < 4*len(grams) && bits < 1<<15 {
		bits *= 2
	}
	f := make(filterV2, bits/8)
	for _, g := range grams {
		i := f.bit(g)
		f[i/8] |= 1 << (i % 8)
	}
	return f
}

// TestFilterV2HoldsItsTrigrams checks the reading of format 2's filters.
func TestFilterV2HoldsItsTrigrams(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 40, 3000} {
		grams := randomGrams(r, n)
		f := newFilterV2(grams)
		for _, g := range grams {
			if !f.has(g) {
				t.Fatalf("%d trigrams: the filter rules out %06x, one of them", n, g)
			}
		}
		passed := 0
		for range 10000 {
			if f.has(r.Uint32() & 0xffffff) {
				passed++
			}
		}
		if passed > 3000 {
			t.Errorf("%d trigrams: %d of 10000 random trigrams pass", n, passed)
		}
	}
}
