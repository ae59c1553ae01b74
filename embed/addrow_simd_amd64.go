//go:build goexperiment.simd && amd64

package embed

import (
	"simd/archsimd"

	"github.com/bcindex/bcindex/internal/simdlevel"
)

func init() {
	if !archsimd.X86.AVX2() {
		return
	}
	addScaledAll["avx2"] = addScaledAVX2
	if simdlevel.Choose(simdlevel.AVX2) >= simdlevel.AVX2 {
		addScaled = addScaledAVX2
	}
}

// addScaledAVX2 is addScaledGo eight lanes at a time: each lane widens its
// int8 to float32, multiplies by w and adds, the same two rounded float32
// operations as the scalar loop (no fused multiply-add), so a vector is the
// same bit for bit with or without it.
func addScaledAVX2(v []float32, row []int8, w float32) {
	n := len(row)
	v = v[:n]
	wv := archsimd.BroadcastFloat32x8(w)
	j := 0
	for ; j+16 <= n; j += 8 {
		x := archsimd.LoadInt8x16Slice(row[j:]).ExtendLo8ToInt32().ConvertToFloat32()
		archsimd.LoadFloat32x8Slice(v[j:]).Add(x.Mul(wv)).StoreSlice(v[j:])
	}
	archsimd.ClearAVXUpperBits()
	for ; j < n; j++ {
		v[j] += w * float32(row[j])
	}
}
