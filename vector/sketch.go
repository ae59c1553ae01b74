package vector

import (
	"encoding/binary"
	"math/bits"
	"runtime/debug"
	"sync"
)

// A sketch holds each row's sign bits: bit i%64 of word i/64 of a row is
// set when the row's value i is negative. A row of 256 int8 values has a
// sketch of 32 bytes, an eighth of the bytes an exact scan reads. The
// query's magnitudes summed over the values whose sign differs from the
// query's (querySketch.distance) rank rows roughly as their dot products
// do (prefilter.go).
//
// A part stores its rows' sketches after their scales (EncodeParts, the
// sign block of the segment format), so a query maps them instead of
// reading every vector to compute them. The sketch of a mapped region is
// made once per process on its first prefiltered search (sketchOf):
// every segment that maps the same bytes of the same file shares the
// region's mapping (mapcache.go) and so its sketch.
type sketch struct {
	words int      // uint64 words per row: (dim+63)/64
	bits  []byte   // rows × words, little-endian: the part's mapped sign block
	has   []uint64 // a bit a row: set when its scale is usable
}

// sketchCell holds a region's sketch once it is built.
type sketchCell struct {
	mu sync.Mutex
	sk *sketch
}

// sketchWords is the number of words a row's sketch takes.
func sketchWords(dim int) int { return (dim + 63) / 64 }

// A signKernel writes the sketches of rows [lo, hi) of vecs (dim values a
// row) to out, sketchWords(dim) words a row, starting at out[0]. Every
// kernel writes the same bits.
type signKernel func(vecs []int8, dim, lo, hi int, out []uint64)

// signRows is the sign kernel parts' sketches are encoded with, chosen with dotRows
// (kernel_simd_amd64.go); allSignKernels holds every one this build and
// CPU can run, for the tests.
var (
	signRows       signKernel = signRowsGo
	allSignKernels            = map[string]signKernel{"go": signRowsGo}
)

// signRowsGo is the portable sign kernel: eight values to a byte of
// sign bits.
func signRowsGo(vecs []int8, dim, lo, hi int, out []uint64) {
	words := sketchWords(dim)
	for r := lo; r < hi; r++ {
		row := vecs[r*dim:][:dim:dim]
		o := out[(r-lo)*words:][:words:words]
		signBitsGo(row, 0, o)
	}
}

// signBitsGo sets the sign bits of row's values [from, len(row)) in o
// (the row's words, zero at those bits before).
func signBitsGo(row []int8, from int, o []uint64) {
	i := from
	for ; i&7 != 0 && i < len(row); i++ {
		o[i>>6] |= uint64(uint8(row[i])>>7) << (uint(i) & 63)
	}
	for ; i+8 <= len(row); i += 8 {
		x := row[i : i+8 : i+8]
		b := uint64(uint8(x[0])>>7) | uint64(uint8(x[1])>>7)<<1 | uint64(uint8(x[2])>>7)<<2 | uint64(uint8(x[3])>>7)<<3 |
			uint64(uint8(x[4])>>7)<<4 | uint64(uint8(x[5])>>7)<<5 | uint64(uint8(x[6])>>7)<<6 | uint64(uint8(x[7])>>7)<<7
		o[i>>6] |= b << (uint(i) & 63)
	}
	for ; i < len(row); i++ {
		o[i>>6] |= uint64(uint8(row[i])>>7) << (uint(i) & 63)
	}
}

// magBits is how many bits of each query value's magnitude weigh its
// sign bit: magnitudes 0..15.
const magBits = 4

// querySketch is what a row's sketch is compared with: the quantised
// query's sign bits, as a row's, and bit planes of each value's magnitude
// in magBits bits (planes[b] holds bit b of every value's).
type querySketch struct {
	signs  []uint64
	planes [magBits][]uint64
}

// signMag is value x's magnitude in magBits bits: |x| (at most queryMax)
// scaled to 0..2^magBits-1, rounded.
func signMag(x int8) int {
	a := int(x)
	if a < 0 {
		a = -a
	}
	const top = 1<<magBits - 1
	return (a*top + queryMax/2) / queryMax
}

// sketchQuery returns the query's sketch.
func sketchQuery(q *query) *querySketch {
	words := sketchWords(len(q.q8))
	qs := &querySketch{signs: make([]uint64, words)}
	signBitsGo(q.q8, 0, qs.signs)
	for b := range qs.planes {
		qs.planes[b] = make([]uint64, words)
	}
	for i, x := range q.q8 {
		m := signMag(x)
		for b := range magBits {
			qs.planes[b][i>>6] |= uint64(m>>b&1) << (uint(i) & 63)
		}
	}
	return qs
}

// maxDist is the largest distance of a row of dim values.
func maxDist(dim int) int { return (1<<magBits - 1) * dim }

// distance is the sum of the query's magnitudes (signMag) over the values
// whose sign differs in the row's sketch row: the sign-bit estimate of
// the dot product, sum(|q|) - 2 × distance, falls as it grows.
func (qs *querySketch) distance(row []byte) int {
	row = row[:8*len(qs.signs)]
	n := 0
	for i := range qs.signs {
		x := binary.LittleEndian.Uint64(row[8*i:]) ^ qs.signs[i]
		n += bits.OnesCount64(x&qs.planes[0][i]) + 2*bits.OnesCount64(x&qs.planes[1][i]) +
			4*bits.OnesCount64(x&qs.planes[2][i]) + 8*bits.OnesCount64(x&qs.planes[3][i])
	}
	return n
}

// sketchOf returns part p's sketch, made on first use: the part's mapped
// sign block, read where it lies (a part lies wherever the store's log put
// it, so its words need not be aligned; the distances load them as
// bytes), and the rows whose scale is usable. It returns ErrFault, and
// makes nothing, when the mapped part could not be read.
func (p *part) sketchOf() (sk *sketch, err error) {
	c := p.cell
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sk != nil {
		return c.sk, nil
	}
	defer guardFault(debug.SetPanicOnFault(true), &err)
	words := sketchWords(p.dim)
	has := make([]uint64, (p.rows+63)/64)
	for r, sc := range p.scales[:p.rows] {
		if usableScale(sc) {
			has[r/64] |= 1 << (uint(r) & 63)
		}
	}
	c.sk = &sketch{words: words, bits: p.signs[:8*words*p.rows], has: has}
	return c.sk, nil
}
