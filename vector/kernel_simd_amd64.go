//go:build goexperiment.simd && amd64

package vector

import (
	"simd/archsimd"
	"unsafe"
)

// SIMD kernels built on Go 1.26's simd/archsimd (GOEXPERIMENT=simd).
//
// Each step sign-extends 16 (AVX2) or 32 (AVX-512) row bytes to int16
// (VPMOVSXBW) and multiplies them with the int16 query, adding adjacent
// products into int32 lanes (VPMADDWD). Four rows share each query load; their
// lanes are reduced together with horizontal adds. Dimensions past the last
// multiple of 16 are done in scalar code. Products and sums are exact, so the
// results equal dotRowsGo's bit for bit. Every kernel call ends with
// ClearAVXUpperBits (VZEROUPPER) so that the scalar float code scoring the rows
// does not pay the AVX-SSE transition penalty.

func init() {
	switch {
	case archsimd.X86.AVX512():
		allKernels["avx2"] = dotRowsAVX2
		allKernels["avx512"] = dotRowsAVX512
		dotRows, kernelName = dotRowsAVX512, "avx512"
	case archsimd.X86.AVX2():
		allKernels["avx2"] = dotRowsAVX2
		dotRows, kernelName = dotRowsAVX2, "avx2"
	}
}

func dotRowsAVX2(q *query, vecs []int8, rows []int, out []int32) {
	dim := len(q.q16)
	nv := dim &^ 15
	out = out[:len(rows)]
	if nv > 0 {
		qv := q.q16[:nv]
		j := 0
		for ; j+4 <= len(rows); j += 4 {
			dot4AVX2(qv, vecs[rows[j]*dim:], vecs[rows[j+1]*dim:], vecs[rows[j+2]*dim:], vecs[rows[j+3]*dim:], out[j:j+4])
		}
		for ; j < len(rows); j++ {
			out[j] = dot1AVX2(qv, vecs[rows[j]*dim:])
		}
		archsimd.ClearAVXUpperBits()
	}
	if nv < dim {
		dotTails(q, vecs, rows, nv, out)
	}
}

func dotRowsAVX512(q *query, vecs []int8, rows []int, out []int32) {
	dim := len(q.q16)
	nv := dim &^ 15
	out = out[:len(rows)]
	if nv > 0 {
		qv := q.q16[:nv]
		j := 0
		for ; j+4 <= len(rows); j += 4 {
			dot4AVX512(qv, vecs[rows[j]*dim:], vecs[rows[j+1]*dim:], vecs[rows[j+2]*dim:], vecs[rows[j+3]*dim:], out[j:j+4])
		}
		for ; j < len(rows); j++ {
			out[j] = dot1AVX2(qv, vecs[rows[j]*dim:])
		}
		archsimd.ClearAVXUpperBits()
	}
	if nv < dim {
		dotTails(q, vecs, rows, nv, out)
	}
}

// dotTails adds the scalar dot product over dimensions [from, dim) to out,
// or sets it if from == 0.
func dotTails(q *query, vecs []int8, rows []int, from int, out []int32) {
	dim := len(q.q32)
	qt := q.q32[from:]
	for j, r := range rows {
		t := dotGo(qt, vecs[r*dim+from:][:dim-from])
		if from == 0 {
			out[j] = t
		} else {
			out[j] += t
		}
	}
}

// The loops below address memory through unsafe.Pointer arithmetic: callers
// re-slice every operand to the loop length first, so all loads are in
// bounds, and the loops carry no bounds checks, slice-pointer masking or
// spills.

// dot1AVX2 returns the dot product of q and r; len(r) >= len(q), a multiple
// of 16.
func dot1AVX2(q []int16, r []int8) int32 {
	n := len(q)
	r = r[:n]
	qp, rp := unsafe.Pointer(unsafe.SliceData(q)), unsafe.Pointer(unsafe.SliceData(r))
	var acc0, acc1 archsimd.Int32x8
	i := 0
	for ; i+32 <= n; i += 32 {
		acc0 = acc0.Add(loadRow16(rp, i).DotProductPairs(loadQuery16(qp, i)))
		acc1 = acc1.Add(loadRow16(rp, i+16).DotProductPairs(loadQuery16(qp, i+16)))
	}
	if i < n {
		acc0 = acc0.Add(loadRow16(rp, i).DotProductPairs(loadQuery16(qp, i)))
	}
	acc := acc0.Add(acc1)
	s := acc.GetLo().Add(acc.GetHi())
	var o [4]int32
	s.Store(&o)
	return o[0] + o[1] + o[2] + o[3]
}

// dot4AVX2 sets out[0..3] to the dot products of q with r0..r3 (each at least
// len(q) long; len(q) a multiple of 16).
func dot4AVX2(q []int16, r0, r1, r2, r3 []int8, out []int32) {
	n := len(q)
	r0, r1, r2, r3 = r0[:n], r1[:n], r2[:n], r3[:n]
	qp := unsafe.Pointer(unsafe.SliceData(q))
	p0, p1 := unsafe.Pointer(unsafe.SliceData(r0)), unsafe.Pointer(unsafe.SliceData(r1))
	p2, p3 := unsafe.Pointer(unsafe.SliceData(r2)), unsafe.Pointer(unsafe.SliceData(r3))
	var a, b, c, d archsimd.Int32x8
	for i := 0; i < n; i += 16 {
		qv := loadQuery16(qp, i)
		a = a.Add(loadRow16(p0, i).DotProductPairs(qv))
		b = b.Add(loadRow16(p1, i).DotProductPairs(qv))
		c = c.Add(loadRow16(p2, i).DotProductPairs(qv))
		d = d.Add(loadRow16(p3, i).DotProductPairs(qv))
	}
	reduce4(a, b, c, d, out)
}

// dot4AVX512 is dot4AVX2 with 32 dimensions per step.
func dot4AVX512(q []int16, r0, r1, r2, r3 []int8, out []int32) {
	n := len(q)
	r0, r1, r2, r3 = r0[:n], r1[:n], r2[:n], r3[:n]
	qp := unsafe.Pointer(unsafe.SliceData(q))
	p0, p1 := unsafe.Pointer(unsafe.SliceData(r0)), unsafe.Pointer(unsafe.SliceData(r1))
	p2, p3 := unsafe.Pointer(unsafe.SliceData(r2)), unsafe.Pointer(unsafe.SliceData(r3))
	var a, b, c, d archsimd.Int32x16
	i := 0
	for ; i+32 <= n; i += 32 {
		qv := archsimd.LoadInt16x32((*[32]int16)(unsafe.Add(qp, 2*i)))
		a = a.Add(loadRow32(p0, i).DotProductPairs(qv))
		b = b.Add(loadRow32(p1, i).DotProductPairs(qv))
		c = c.Add(loadRow32(p2, i).DotProductPairs(qv))
		d = d.Add(loadRow32(p3, i).DotProductPairs(qv))
	}
	a8 := a.GetLo().Add(a.GetHi())
	b8 := b.GetLo().Add(b.GetHi())
	c8 := c.GetLo().Add(c.GetHi())
	d8 := d.GetLo().Add(d.GetHi())
	if i < n { // one 16-wide step left
		qv := loadQuery16(qp, i)
		a8 = a8.Add(loadRow16(p0, i).DotProductPairs(qv))
		b8 = b8.Add(loadRow16(p1, i).DotProductPairs(qv))
		c8 = c8.Add(loadRow16(p2, i).DotProductPairs(qv))
		d8 = d8.Add(loadRow16(p3, i).DotProductPairs(qv))
	}
	reduce4(a8, b8, c8, d8, out)
}

// loadRow16 loads row bytes [i, i+16) sign-extended to int16.
func loadRow16(p unsafe.Pointer, i int) archsimd.Int16x16 {
	return archsimd.LoadInt8x16((*[16]int8)(unsafe.Add(p, i))).ExtendToInt16()
}

// loadRow32 loads row bytes [i, i+32) sign-extended to int16 (AVX-512).
func loadRow32(p unsafe.Pointer, i int) archsimd.Int16x32 {
	return archsimd.LoadInt8x32((*[32]int8)(unsafe.Add(p, i))).ExtendToInt16()
}

// loadQuery16 loads query values [i, i+16).
func loadQuery16(p unsafe.Pointer, i int) archsimd.Int16x16 {
	return archsimd.LoadInt16x16((*[16]int16)(unsafe.Add(p, 2*i)))
}

// reduce4 stores the lane sums of a, b, c and d in out[0..3].
func reduce4(a, b, c, d archsimd.Int32x8, out []int32) {
	// Within each 128-bit half: [a01 a23 b01 b23] + [c.. d..] -> [a b c d].
	h := a.AddPairsGrouped(b).AddPairsGrouped(c.AddPairsGrouped(d))
	h.GetLo().Add(h.GetHi()).StoreSlice(out)
}
