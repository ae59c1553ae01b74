//go:build goexperiment.simd && amd64

package vector

import "simd/archsimd"

// SIMD kernels built on Go 1.26's simd/archsimd (GOEXPERIMENT=simd).
//
// Each step sign-extends 16 (AVX2) or 32 (AVX-512) row bytes to int16
// (VPMOVSXBW) and multiplies them with the int16 query, adding adjacent
// products into int32 lanes (VPMADDWD). Four rows share each query load; their
// lane sums are reduced together with horizontal adds. The products and sums
// are exact, so results equal dotRowsGo's bit for bit. Every kernel call ends
// with ClearAVXUpperBits (VZEROUPPER) so the scalar float code that scores the
// rows does not pay the AVX-SSE transition penalty.

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

func dotRowsAVX2(q *query, vecs []int8, out []int32) {
	dim := len(q.q16)
	nv := dim &^ 15 // vectorised prefix; the rest is done in scalar code
	j := 0
	if nv > 0 {
		var o4 [4]int32
		for ; j+4 <= len(out); j += 4 {
			dot4AVX2(q.q16[:nv], vecs[j*dim:(j+4)*dim], dim, &o4)
			copy(out[j:j+4], o4[:])
		}
		for ; j < len(out); j++ {
			out[j] = dot1AVX2(q.q16[:nv], vecs[j*dim:j*dim+nv])
		}
		archsimd.ClearAVXUpperBits()
	}
	if nv < dim {
		addTails(q, vecs, nv, out)
	}
}

func dotRowsAVX512(q *query, vecs []int8, out []int32) {
	dim := len(q.q16)
	nv := dim &^ 15
	j := 0
	if nv > 0 {
		var o4 [4]int32
		for ; j+4 <= len(out); j += 4 {
			dot4AVX512(q.q16[:nv], vecs[j*dim:(j+4)*dim], dim, &o4)
			copy(out[j:j+4], o4[:])
		}
		for ; j < len(out); j++ {
			out[j] = dot1AVX2(q.q16[:nv], vecs[j*dim:j*dim+nv])
		}
		archsimd.ClearAVXUpperBits()
	}
	if nv < dim {
		addTails(q, vecs, nv, out)
	}
}

// addTails sets (if nothing was vectorised) or adds the scalar dot product of
// dimensions [from, dim) for every row.
func addTails(q *query, vecs []int8, from int, out []int32) {
	dim := len(q.q32)
	qt := q.q32[from:]
	for j := range out {
		t := dotGo(qt, vecs[j*dim+from:(j+1)*dim])
		if from == 0 {
			out[j] = t
		} else {
			out[j] += t
		}
	}
}

// dot1AVX2 returns the dot product of q and r, len(r) == len(q), a multiple of 16.
func dot1AVX2(q []int16, r []int8) int32 {
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

// dot4AVX2 computes the dot products of q with four consecutive rows of
// length dim starting at r[0]; len(q) (<= dim) is a multiple of 16.
func dot4AVX2(q []int16, r []int8, dim int, out *[4]int32) {
	n := len(q)
	r0 := r[:n]
	r1 := r[dim : dim+n]
	r2 := r[2*dim : 2*dim+n]
	r3 := r[3*dim : 3*dim+n]
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
func dot4AVX512(q []int16, r []int8, dim int, out *[4]int32) {
	n := len(q)
	r0 := r[:n]
	r1 := r[dim : dim+n]
	r2 := r[2*dim : 2*dim+n]
	r3 := r[3*dim : 3*dim+n]
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
func reduce4(a, b, c, d archsimd.Int32x8, out *[4]int32) {
	// Within each 128-bit half: [a01 a23 b01 b23], then [a b c d] partials.
	h := a.AddPairsGrouped(b).AddPairsGrouped(c.AddPairsGrouped(d))
	h.GetLo().Add(h.GetHi()).Store(out)
}
