package indexer

import (
	"math/rand/v2"
	"testing"
)

// TestShareIndexAnswersAsMap: the sorted index, filled a segment at a
// time, answers every lookup as the map it replaced, filled in the same
// order and keeping a hash's first place: hashes repeat within a
// segment's additions and across them, and some are never added.
func TestShareIndexAnswersAsMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	hash := func() [16]byte {
		var h [16]byte
		// Few distinct values per half, so that halves collide often.
		hi, lo := rng.Uint64N(300)<<56|rng.Uint64N(3), rng.Uint64N(500)
		for i := range 8 {
			h[i] = byte(hi >> (56 - 8*i))
			h[8+i] = byte(lo >> (56 - 8*i))
		}
		return h
	}
	want := map[[16]byte]sharedAt{}
	var x shareIndex
	var seen [][16]byte
	for seg := range 40 {
		var add []shareEntry
		for row := range rng.IntN(2000) {
			h := hash()
			seen = append(seen, h)
			at := sharedAt{uint32(seg), uint32(row)}
			if _, ok := want[h]; !ok {
				want[h] = at
			}
			hi, lo := entryKey(h)
			add = append(add, shareEntry{hi, lo, at})
		}
		x = x.addAll(add)
		for _, h := range seen {
			got, ok := x.get(h)
			if w := want[h]; !ok || got != w {
				t.Fatalf("after segment %d: %x at %v (%v), want %v", seg, h, got, ok, w)
			}
		}
		if len(x) != len(want) {
			t.Fatalf("after segment %d: %d entries for %d hashes", seg, len(x), len(want))
		}
	}
	for range 1000 {
		h := hash()
		if _, ok := want[h]; !ok && x.has(h) {
			t.Fatalf("%x found, never added", h)
		}
	}
}
