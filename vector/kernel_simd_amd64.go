//go:build goexperiment.simd && amd64

package vector

import "simd/archsimd"

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

// dot1AVX2 returns the dot product of q and r; len(r) >= len(q), a multiple
// of 16.
func dot1AVX2(q []int16, r []int8) int32 {
	r = r[:len(q)]
	var acc0, acc1 archsimd.Int32x8
	i := 0
	for ; i+32 <= len(q); i += 32 {
		acc0 = acc0.Add(archsimd.LoadInt8x16Slice(r[i:]).ExtendToInt16().DotProductPairs(archsimd.LoadInt16x16Slice(q[i:])))
		acc1 = acc1.Add(archsimd.LoadInt8x16Slice(r[i+16:]).ExtendToInt16().DotProductPairs(archsimd.LoadInt16x16Slice(q[i+16:])))
	}
	if i < len(q) {
		acc0 = acc0.Add(archsimd.LoadInt8x16Slice(r[i:]).ExtendToInt16().DotProductPairs(archsimd.LoadInt16x16Slice(q[i:])))
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
	var a, b, c, d archsimd.Int32x8
	for i := 0; i+16 <= n; i += 16 {
		qv := archsimd.LoadInt16x16Slice(q[i:])
		a = a.Add(archsimd.LoadInt8x16Slice(r0[i:]).ExtendToInt16().DotProductPairs(qv))
		b = b.Add(archsimd.LoadInt8x16Slice(r1[i:]).ExtendToInt16().DotProductPairs(qv))
		c = c.Add(archsimd.LoadInt8x16Slice(r2[i:]).ExtendToInt16().DotProductPairs(qv))
		d = d.Add(archsimd.LoadInt8x16Slice(r3[i:]).ExtendToInt16().DotProductPairs(qv))
	}
	reduce4(a, b, c, d, out)
}

// dot4AVX512 is dot4AVX2 with 32 dimensions per step.
func dot4AVX512(q []int16, r0, r1, r2, r3 []int8, out []int32) {
	n := len(q)
	r0, r1, r2, r3 = r0[:n], r1[:n], r2[:n], r3[:n]
	var a, b, c, d archsimd.Int32x16
	i := 0
	for ; i+32 <= n; i += 32 {
		qv := archsimd.LoadInt16x32Slice(q[i:])
		a = a.Add(archsimd.LoadInt8x32Slice(r0[i:]).ExtendToInt16().DotProductPairs(qv))
		b = b.Add(archsimd.LoadInt8x32Slice(r1[i:]).ExtendToInt16().DotProductPairs(qv))
		c = c.Add(archsimd.LoadInt8x32Slice(r2[i:]).ExtendToInt16().DotProductPairs(qv))
		d = d.Add(archsimd.LoadInt8x32Slice(r3[i:]).ExtendToInt16().DotProductPairs(qv))
	}
	a8 := a.GetLo().Add(a.GetHi())
	b8 := b.GetLo().Add(b.GetHi())
	c8 := c.GetLo().Add(c.GetHi())
	d8 := d.GetLo().Add(d.GetHi())
	if i < n { // one 16-wide step left
		qv := archsimd.LoadInt16x16Slice(q[i:])
		a8 = a8.Add(archsimd.LoadInt8x16Slice(r0[i:]).ExtendToInt16().DotProductPairs(qv))
		b8 = b8.Add(archsimd.LoadInt8x16Slice(r1[i:]).ExtendToInt16().DotProductPairs(qv))
		c8 = c8.Add(archsimd.LoadInt8x16Slice(r2[i:]).ExtendToInt16().DotProductPairs(qv))
		d8 = d8.Add(archsimd.LoadInt8x16Slice(r3[i:]).ExtendToInt16().DotProductPairs(qv))
	}
	reduce4(a8, b8, c8, d8, out)
}

// reduce4 stores the lane sums of a, b, c and d in out[0..3].
func reduce4(a, b, c, d archsimd.Int32x8, out []int32) {
	// Within each 128-bit half: [a01 a23 b01 b23] + [c.. d..] -> [a b c d].
	h := a.AddPairsGrouped(b).AddPairsGrouped(c.AddPairsGrouped(d))
	h.GetLo().Add(h.GetHi()).StoreSlice(out)
}
