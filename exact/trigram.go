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

// scratch is Trigrams' working memory: a bitmap of all 2^24 trigrams
// (2 MiB), cleared after use, so that deduplication costs a bit test per
// byte, and a buffer for the radix sort.
type scratch struct {
	seen []uint64
	buf  []uint32
}

var scratchPool = sync.Pool{New: func() any { return &scratch{seen: make([]uint64, 1<<24/64)} }}

// Trigrams appends to dst the sorted, distinct folded trigrams of content.
// When content holds the Kelvin sign or the long s, it also appends those
// of a copy with them replaced by k and s: Go's case folding (and PCRE's)
// equates them with k and s, so a case-insensitive "kelvin" matches
// "\u212Aelvin", and the plan, which reads that k as k, must find its
// trigrams.
func Trigrams(content []byte, dst []uint32) []uint32 {
	sc := scratchPool.Get().(*scratch)
	start := len(dst)
	dst = appendTrigrams(content, dst, sc.seen)
	if bytes.Contains(content, kelvin) || bytes.Contains(content, longS) {
		c := bytes.ReplaceAll(content, kelvin, []byte("k"))
		c = bytes.ReplaceAll(c, longS, []byte("s"))
		dst = appendTrigrams(c, dst, sc.seen)
	}
	for _, t := range dst[start:] {
		sc.seen[t>>6] = 0
	}
	if n := len(dst) - start; n < 256 {
		slices.Sort(dst[start:])
	} else {
		if cap(sc.buf) < n {
			sc.buf = make([]uint32, n)
		}
		radixSort24(dst[start:], sc.buf[:n])
	}
	scratchPool.Put(sc)
	return dst
}

// radixSort24 sorts 24-bit keys in three byte-wide passes through tmp, a
// buffer as long as a: linear, where a comparison sort took two thirds of
// Trigrams' time.
func radixSort24(a, tmp []uint32) {
	src, dst := a, tmp
	for shift := 0; shift < 24; shift += 8 {
		var count [257]int
		for _, v := range src {
			count[(v>>shift)&0xff+1]++
		}
		for i := 1; i < len(count); i++ {
			count[i] += count[i-1]
		}
		for _, v := range src {
			b := (v >> shift) & 0xff
			dst[count[b]] = v
			count[b]++
		}
		src, dst = dst, src
	}
	copy(a, src) // three passes leave the keys in tmp
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
