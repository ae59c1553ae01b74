package exact

import (
	"bytes"
	"slices"
	"sync"
)

// Fold maps ASCII A–Z to a–z and leaves every other byte as it is: the
// index's folding, applied to content and plan alike.
func Fold(b byte) byte {
	if 'A' <= b && b <= 'Z' {
		return b + 'a' - 'A'
	}
	return b
}

// trigram packs three bytes, each folded, into b0<<16|b1<<8|b2.
func trigram(b0, b1, b2 byte) uint32 {
	return uint32(Fold(b0))<<16 | uint32(Fold(b1))<<8 | uint32(Fold(b2))
}

var (
	kelvin = []byte("\u212A")
	longS  = []byte("\u017F")
)

// seenPool holds bitmaps of all 2^24 trigrams (2 MiB each), cleared after
// use, so that deduplication costs a bit test per byte instead of a sort of
// every trigram.
var seenPool = sync.Pool{New: func() any { return make([]uint64, 1<<24/64) }}

// Trigrams appends to dst the sorted, distinct folded trigrams of content.
// When content holds the Kelvin sign or the long s, it also appends those
// of a copy with them replaced by k and s: Go's case folding (and PCRE's)
// equates them with k and s, so a case-insensitive "kelvin" matches
// "\u212Aelvin", and the plan, which reads that k as k, must find its
// trigrams.
func Trigrams(content []byte, dst []uint32) []uint32 {
	seen := seenPool.Get().([]uint64)
	start := len(dst)
	dst = appendTrigrams(content, dst, seen)
	if bytes.Contains(content, kelvin) || bytes.Contains(content, longS) {
		c := bytes.ReplaceAll(content, kelvin, []byte("k"))
		c = bytes.ReplaceAll(c, longS, []byte("s"))
		dst = appendTrigrams(c, dst, seen)
	}
	for _, t := range dst[start:] {
		seen[t>>6] = 0
	}
	seenPool.Put(seen)
	slices.Sort(dst[start:])
	return dst
}

func appendTrigrams(content []byte, dst []uint32, seen []uint64) []uint32 {
	if len(content) < 3 {
		return dst
	}
	t := uint32(Fold(content[0]))<<8 | uint32(Fold(content[1]))
	for _, b := range content[2:] {
		t = (t<<8 | uint32(Fold(b))) & (1<<24 - 1)
		if w, bit := t>>6, uint64(1)<<(t&63); seen[w]&bit == 0 {
			seen[w] |= bit
			dst = append(dst, t)
		}
	}
	return dst
}
