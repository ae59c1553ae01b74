package pickaxe

import "github.com/bcindex/bcindex/exact"

// filter is a Bloom filter of a record's folded trigrams (exact.Trigrams
// of its removed and added lines): filterBits bits a distinct trigram,
// each trigram setting filterProbes of them, from filterMinBytes to
// filterMaxBytes; empty, it may hold anything. A pattern whose trigram
// plan it rules out changes no count and no line of the change, so a
// search passes the record over unread. A trigram absent from the record
// passes about one filter in seven (as the single-hash filters of format
// 2 did with their power-of-two sizes, which took 40% more bytes);
// one that needs five trigrams passes over about 99.99% of the records
// without them. A filter sized past its maximum passes more.
type filter []byte

const (
	filterBits     = 4
	filterProbes   = 3
	filterMinBytes = 8
	filterMaxBytes = 16 << 10
)

// newFilter returns the filter of grams, distinct trigrams.
func newFilter(grams []uint32) filter {
	n := (filterBits*len(grams) + 7) / 8
	f := make(filter, min(max(n, filterMinBytes), filterMaxBytes))
	for _, g := range grams {
		h1, h2 := filterHash(g)
		for j := range uint32(filterProbes) {
			i := f.probe(h1 + j*h2)
			f[i/8] |= 1 << (i % 8)
		}
	}
	return f
}

// filterHash returns two 32-bit hashes of g, which the probes combine
// (h1 + j·h2, double hashing).
func filterHash(g uint32) (h1, h2 uint32) {
	x := uint64(g) * 0x9E3779B97F4A7C15
	x ^= x >> 29
	x *= 0xBF58476D1CE4E5B9
	x ^= x >> 32
	return uint32(x), uint32(x>>32) | 1
}

// probe maps a hash onto the filter's bits, whatever their number.
func (f filter) probe(h uint32) uint32 {
	return uint32((uint64(h) * uint64(len(f)*8)) >> 32)
}

func (f filter) has(g uint32) bool {
	if len(f) == 0 {
		return true
	}
	h1, h2 := filterHash(g)
	for j := range uint32(filterProbes) {
		i := f.probe(h1 + j*h2)
		if f[i/8]&(1<<(i%8)) == 0 {
			return false
		}
	}
	return true
}

func (f filter) mayHold(q *exact.Query) bool {
	return len(f) == 0 || q == nil || q.Eval(f.has)
}

// filterV2 is a filter of a format 2 diffs file ("bcx2"), which is still
// read: one hash, a power of two of bits, at least four bits a trigram,
// from 64 to 32,768 bits.
type filterV2 []byte

// bit is trigram g's bit (len(f) is a power of two).
func (f filterV2) bit(g uint32) uint32 {
	return (g * 0x9E3779B1) >> (32 - uint32(bitsLen(len(f)*8)))
}

func bitsLen(n int) int {
	b := 0
	for n > 1 {
		n >>= 1
		b++
	}
	return b
}

func (f filterV2) has(g uint32) bool {
	if len(f) == 0 {
		return true
	}
	i := f.bit(g)
	return f[i/8]&(1<<(i%8)) != 0
}

func (f filterV2) mayHold(q *exact.Query) bool {
	return len(f) == 0 || q == nil || q.Eval(f.has)
}
