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
