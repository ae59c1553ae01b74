//go:build goexperiment.simd && amd64

package vector

import (
	"simd/archsimd"
	"unsafe"

	"github.com/bcindex/bcindex/internal/simdlevel"
)

// SIMD kernels built on Go 1.26's simd/archsimd (GOEXPERIMENT=simd).
//
// Each step flips the sign bit of 32 (AVX2) or 64 (AVX-512) row bytes,
// which turns a stored value r into the unsigned r+128, multiplies them with
// the signed query bytes and adds adjacent products into int16 lanes
// (VPMADDUBSW; the query's range keeps the sums from saturating, see
// queryMax), then adds adjacent int16 lanes into int32 (VPMADDWD with ones).
// The result is the dot product plus 128 × the query's sum, which the caller
// subtracts (query.bias). Four rows share each query load; their lanes are
// reduced together with horizontal adds. Dimensions past the last multiple
// of 32 are done in scalar code. Products and sums are exact, so the results
// equal dotRowsGo's bit for bit. Every kernel call ends with
// ClearAVXUpperBits (VZEROUPPER) so that the scalar float code scoring the
// rows does not pay the AVX-SSE transition penalty.
//
// No vector instruction runs before init has asked the CPU: the constants the
// kernels need (the sign bit, the int16 ones) are made inside each kernel
// call, never as package variables, whose initialisation would run AVX-512
// code on every CPU at start-up.

func init() {
	cpu := simdlevel.Generic
	switch {
	case archsimd.X86.AVX512():
		cpu = simdlevel.AVX512
	case archsimd.X86.AVX2():
		cpu = simdlevel.AVX2
	}
	if cpu >= simdlevel.AVX2 {
		allKernels["avx2"] = dotRowsAVX2
		allSignKernels["avx2"] = signRowsAVX2
	}
	popcnt := archsimd.X86.AVX512VPOPCNTDQ()
	if cpu >= simdlevel.AVX512 {
		allKernels["avx512"] = dotRowsAVX512
		allSignKernels["avx512"] = signRowsAVX512
		if popcnt {
			allDistKernels["avx512"] = distBlockAVX512
		}
	}
	switch simdlevel.Choose(cpu) {
	case simdlevel.AVX512:
		dotRows, signRows, kernelName = dotRowsAVX512, signRowsAVX512, "avx512"
		if popcnt {
			distBlock, denseFrom = distBlockAVX512, 16
		}
	case simdlevel.AVX2:
		dotRows, signRows, kernelName = dotRowsAVX2, signRowsAVX2, "avx2"
	}
}

func dotRowsAVX2(q *query, vecs []int8, rows []int, out []int32) {
	dotRowsSIMD(q, vecs, rows, out, dot4AVX2)
}

func dotRowsAVX512(q *query, vecs []int8, rows []int, out []int32) {
	dotRowsSIMD(q, vecs, rows, out, dot4AVX512)
}

// dotRowsSIMD runs dot4 over four rows at a time and dot1AVX2 over the
// rest, then removes the bias and adds the scalar tails.
func dotRowsSIMD(q *query, vecs []int8, rows []int, out []int32, dot4 func(q, r0, r1, r2, r3 []int8, out []int32)) {
	dim := len(q.q8)
	nv := dim &^ 31
	out = out[:len(rows)]
	if nv > 0 {
		qv := q.q8[:nv]
		j := 0
		for ; j+4 <= len(rows); j += 4 {
			dot4(qv, vecs[rows[j]*dim:], vecs[rows[j+1]*dim:], vecs[rows[j+2]*dim:], vecs[rows[j+3]*dim:], out[j:j+4])
		}
		for ; j < len(rows); j++ {
			out[j] = dot1AVX2(qv, vecs[rows[j]*dim:])
		}
		archsimd.ClearAVXUpperBits()
		for j := range out {
			out[j] -= q.bias
		}
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

// consts32 holds the AVX2 kernels' constants, made per call (see init).
type consts32 struct {
	sign archsimd.Int8x32
	ones archsimd.Int16x16
}

func newConsts32() consts32 {
	return consts32{sign: archsimd.BroadcastInt8x32(-128), ones: archsimd.BroadcastInt16x16(1)}
}

// step32 returns the biased dot product of 32 row bytes at p+i with qv, in
// eight int32 lanes.
func step32(p unsafe.Pointer, i int, qv archsimd.Int8x32, k *consts32) archsimd.Int32x8 {
	r := archsimd.LoadInt8x32((*[32]int8)(unsafe.Add(p, i)))
	return r.Xor(k.sign).AsUint8x32().DotProductPairsSaturated(qv).DotProductPairs(k.ones)
}

// dot1AVX2 returns the biased dot product of q and r; len(r) >= len(q), a
// multiple of 32.
func dot1AVX2(q []int8, r []int8) int32 {
	n := len(q)
	r = r[:n]
	qp, rp := unsafe.Pointer(unsafe.SliceData(q)), unsafe.Pointer(unsafe.SliceData(r))
	k := newConsts32()
	var acc archsimd.Int32x8
	for i := 0; i < n; i += 32 {
		acc = acc.Add(step32(rp, i, loadQuery32(qp, i), &k))
	}
	s := acc.GetLo().Add(acc.GetHi())
	var o [4]int32
	s.Store(&o)
	return o[0] + o[1] + o[2] + o[3]
}

// dot4AVX2 sets out[0..3] to the biased dot products of q with r0..r3 (each
// at least len(q) long; len(q) a multiple of 32).
func dot4AVX2(q, r0, r1, r2, r3 []int8, out []int32) {
	n := len(q)
	r0, r1, r2, r3 = r0[:n], r1[:n], r2[:n], r3[:n]
	qp := unsafe.Pointer(unsafe.SliceData(q))
	p0, p1 := unsafe.Pointer(unsafe.SliceData(r0)), unsafe.Pointer(unsafe.SliceData(r1))
	p2, p3 := unsafe.Pointer(unsafe.SliceData(r2)), unsafe.Pointer(unsafe.SliceData(r3))
	k := newConsts32()
	var a, b, c, d archsimd.Int32x8
	for i := 0; i < n; i += 32 {
		qv := loadQuery32(qp, i)
		a = a.Add(step32(p0, i, qv, &k))
		b = b.Add(step32(p1, i, qv, &k))
		c = c.Add(step32(p2, i, qv, &k))
		d = d.Add(step32(p3, i, qv, &k))
	}
	reduce4(a, b, c, d, out)
}

// consts64 holds the AVX-512 kernel's constants, made per call (see init).
type consts64 struct {
	sign archsimd.Int8x64
	ones archsimd.Int16x32
}

// step64 is step32 over 64 bytes (AVX-512), in sixteen int32 lanes.
func step64(p unsafe.Pointer, i int, qv archsimd.Int8x64, k *consts64) archsimd.Int32x16 {
	r := archsimd.LoadInt8x64((*[64]int8)(unsafe.Add(p, i)))
	return r.Xor(k.sign).AsUint8x64().DotProductPairsSaturated(qv).DotProductPairs(k.ones)
}

// dot4AVX512 is dot4AVX2 with 64 dimensions per step.
func dot4AVX512(q, r0, r1, r2, r3 []int8, out []int32) {
	n := len(q)
	r0, r1, r2, r3 = r0[:n], r1[:n], r2[:n], r3[:n]
	qp := unsafe.Pointer(unsafe.SliceData(q))
	p0, p1 := unsafe.Pointer(unsafe.SliceData(r0)), unsafe.Pointer(unsafe.SliceData(r1))
	p2, p3 := unsafe.Pointer(unsafe.SliceData(r2)), unsafe.Pointer(unsafe.SliceData(r3))
	k := consts64{sign: archsimd.BroadcastInt8x64(-128), ones: archsimd.BroadcastInt16x32(1)}
	var a, b, c, d archsimd.Int32x16
	i := 0
	for ; i+64 <= n; i += 64 {
		qv := archsimd.LoadInt8x64((*[64]int8)(unsafe.Add(qp, i)))
		a = a.Add(step64(p0, i, qv, &k))
		b = b.Add(step64(p1, i, qv, &k))
		c = c.Add(step64(p2, i, qv, &k))
		d = d.Add(step64(p3, i, qv, &k))
	}
	a8 := a.GetLo().Add(a.GetHi())
	b8 := b.GetLo().Add(b.GetHi())
	c8 := c.GetLo().Add(c.GetHi())
	d8 := d.GetLo().Add(d.GetHi())
	if i < n { // one 32-wide step left
		k2 := newConsts32()
		qv := loadQuery32(qp, i)
		a8 = a8.Add(step32(p0, i, qv, &k2))
		b8 = b8.Add(step32(p1, i, qv, &k2))
		c8 = c8.Add(step32(p2, i, qv, &k2))
		d8 = d8.Add(step32(p3, i, qv, &k2))
	}
	reduce4(a8, b8, c8, d8, out)
}

// loadQuery32 loads query values [i, i+32).
func loadQuery32(p unsafe.Pointer, i int) archsimd.Int8x32 {
	return archsimd.LoadInt8x32((*[32]int8)(unsafe.Add(p, i)))
}

// reduce4 stores the lane sums of a, b, c and d in out[0..3].
func reduce4(a, b, c, d archsimd.Int32x8, out []int32) {
	// Within each 128-bit half: [a01 a23 b01 b23] + [c.. d..] -> [a b c d].
	h := a.AddPairsGrouped(b).AddPairsGrouped(c.AddPairsGrouped(d))
	h.GetLo().Add(h.GetHi()).StoreSlice(out)
}
