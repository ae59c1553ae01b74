//go:build goexperiment.simd && amd64

package vector

import (
	"simd/archsimd"
	"unsafe"
)

// Sign kernels (sketch.go) on simd/archsimd: a signed compare of 32 (AVX2)
// or 64 (AVX-512) row bytes with zero gives a mask of the negative ones,
// which VPMOVMSKB (AVX2) or KMOVQ (AVX-512) turns into as many sign bits.
// Dimensions past the last multiple of 32 are done by signBitsGo. Like
// the dot kernels, they make their zero vector per call and end with
// VZEROUPPER.

// signRowsAVX2 is signRowsGo, 32 values a step.
func signRowsAVX2(vecs []int8, dim, lo, hi int, out []uint64) {
	words := sketchWords(dim)
	nv := dim &^ 31
	var zero archsimd.Int8x32
	for r := lo; r < hi; r++ {
		row := vecs[r*dim:][:dim:dim]
		o := out[(r-lo)*words:][:words:words]
		p := unsafe.Pointer(unsafe.SliceData(row))
		for i := 0; i < nv; i += 32 {
			x := archsimd.LoadInt8x32((*[32]int8)(unsafe.Add(p, i)))
			o[i>>6] |= uint64(zero.Greater(x).ToBits()) << (uint(i) & 63)
		}
		if nv < dim {
			signBitsGo(row, nv, o)
		}
	}
	archsimd.ClearAVXUpperBits()
}

// signRowsAVX512 is signRowsGo, 64 values (a word) a step.
func signRowsAVX512(vecs []int8, dim, lo, hi int, out []uint64) {
	words := sketchWords(dim)
	var zero archsimd.Int8x64
	var zero32 archsimd.Int8x32
	for r := lo; r < hi; r++ {
		row := vecs[r*dim:][:dim:dim]
		o := out[(r-lo)*words:][:words:words]
		p := unsafe.Pointer(unsafe.SliceData(row))
		i := 0
		for ; i+64 <= dim; i += 64 {
			x := archsimd.LoadInt8x64((*[64]int8)(unsafe.Add(p, i)))
			o[i>>6] = zero.Greater(x).ToBits()
		}
		if i+32 <= dim {
			x := archsimd.LoadInt8x32((*[32]int8)(unsafe.Add(p, i)))
			o[i>>6] |= uint64(zero32.Greater(x).ToBits())
			i += 32
		}
		if i < dim {
			signBitsGo(row, i, o)
		}
	}
	archsimd.ClearAVXUpperBits()
}

// distBlockAVX512 is distBlockGo two rows a step: the eight words of two
// rows (64 bytes, loaded as bytes wherever they lie) XORed with the query's signs (twice over), each magnitude plane
// ANDed, counted (VPOPCNTQ) and weighted by a shift, and each row's four
// lanes summed.
func distBlockAVX512(qs *querySketch, b []byte, d []uint16) {
	n := len(d)
	b = b[:32*n]
	var two [5][8]uint64
	for w := range 4 {
		two[0][w], two[0][w+4] = qs.signs[w], qs.signs[w]
		for p := range magBits {
			two[p+1][w], two[p+1][w+4] = qs.planes[p][w], qs.planes[p][w]
		}
	}
	sv := archsimd.LoadUint64x8(&two[0])
	p0, p1 := archsimd.LoadUint64x8(&two[1]), archsimd.LoadUint64x8(&two[2])
	p2, p3 := archsimd.LoadUint64x8(&two[3]), archsimd.LoadUint64x8(&two[4])
	var o [8]uint64
	i := 0
	for ; i+2 <= n; i += 2 {
		x := archsimd.LoadUint8x64((*[64]uint8)(b[i*32 : i*32+64])).AsUint64x8().Xor(sv)
		c := x.And(p0).OnesCount().Add(x.And(p1).OnesCount().ShiftAllLeft(1)).
			Add(x.And(p2).OnesCount().ShiftAllLeft(2)).Add(x.And(p3).OnesCount().ShiftAllLeft(3))
		c.Store(&o)
		d[i] = uint16(o[0] + o[1] + o[2] + o[3])
		d[i+1] = uint16(o[4] + o[5] + o[6] + o[7])
	}
	archsimd.ClearAVXUpperBits()
	if i < n {
		d[i] = uint16(dist4(qs, b[i*32:i*32+32:i*32+32]))
	}
}
