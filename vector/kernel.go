package vector

import "slices"

// A kernel sets out[j] to the exact integer dot product of the query with row
// rows[j] of vecs (the dim values at vecs[rows[j]*dim:]), for every j <
// len(rows); dim == len(q.q32) and len(out) >= len(rows).
//
// The query is quantised so that no dot product can overflow int32 (see
// quantizeQuery); integer addition is associative, so kernels may add the
// products in any order and still return identical results.
type kernel func(q *query, vecs []int8, rows []int, out []int32)

// dotRows is the kernel Search uses: dotRowsGo, or a SIMD kernel installed by
// kernel_simd_amd64.go when built with GOEXPERIMENT=simd on a CPU that has
// AVX2 or AVX-512 and BCINDEX_KERNEL allows it (package simdlevel).
// allKernels holds every kernel the build and the CPU can run, whatever the
// setting, so the tests compare each with dotRowsGo on one machine.
var (
	dotRows    kernel = dotRowsGo
	kernelName        = "go"
	allKernels        = map[string]kernel{"go": dotRowsGo}
)

// Kernel returns the name of the kernel searches run: "go", "avx2" or
// "avx512".
func Kernel() string { return kernelName }

// Kernels returns the names of every kernel this build can run on this CPU,
// sorted.
func Kernels() []string {
	names := make([]string, 0, len(allKernels))
	for name := range allKernels {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// dotRowsGo is the portable kernel: four rows at a time so that each query
// value is loaded once per four products, unrolled by four dimensions, with
// re-sliced operands so the compiler drops the bounds checks in the loop.
func dotRowsGo(q *query, vecs []int8, rows []int, out []int32) {
	qv := q.q32
	dim := len(qv)
	out = out[:len(rows)]
	j := 0
	for ; j+4 <= len(rows); j += 4 {
		r0 := vecs[rows[j]*dim:][:dim:dim]
		r1 := vecs[rows[j+1]*dim:][:dim:dim]
		r2 := vecs[rows[j+2]*dim:][:dim:dim]
		r3 := vecs[rows[j+3]*dim:][:dim:dim]
		var a, b, c, d int32
		i := 0
		for ; i <= dim-4; i += 4 {
			qq := qv[i : i+4 : i+4]
			x0 := r0[i : i+4 : i+4]
			x1 := r1[i : i+4 : i+4]
			x2 := r2[i : i+4 : i+4]
			x3 := r3[i : i+4 : i+4]
			a += qq[0]*int32(x0[0]) + qq[1]*int32(x0[1]) + qq[2]*int32(x0[2]) + qq[3]*int32(x0[3])
			b += qq[0]*int32(x1[0]) + qq[1]*int32(x1[1]) + qq[2]*int32(x1[2]) + qq[3]*int32(x1[3])
			c += qq[0]*int32(x2[0]) + qq[1]*int32(x2[1]) + qq[2]*int32(x2[2]) + qq[3]*int32(x2[3])
			d += qq[0]*int32(x3[0]) + qq[1]*int32(x3[1]) + qq[2]*int32(x3[2]) + qq[3]*int32(x3[3])
		}
		for ; i < dim; i++ {
			a += qv[i] * int32(r0[i])
			b += qv[i] * int32(r1[i])
			c += qv[i] * int32(r2[i])
			d += qv[i] * int32(r3[i])
		}
		o := out[j : j+4 : j+4]
		o[0], o[1], o[2], o[3] = a, b, c, d
	}
	for ; j < len(rows); j++ {
		out[j] = dotGo(qv, vecs[rows[j]*dim:][:dim])
	}
}

// dotGo is the single-row portable dot product, unrolled by eight with four
// independent accumulators.
func dotGo(q []int32, r []int8) int32 {
	n := len(q)
	r = r[:n]
	var s0, s1, s2, s3 int32
	i := 0
	for ; i <= n-8; i += 8 {
		qq := q[i : i+8 : i+8]
		rr := r[i : i+8 : i+8]
		s0 += qq[0]*int32(rr[0]) + qq[4]*int32(rr[4])
		s1 += qq[1]*int32(rr[1]) + qq[5]*int32(rr[5])
		s2 += qq[2]*int32(rr[2]) + qq[6]*int32(rr[6])
		s3 += qq[3]*int32(rr[3]) + qq[7]*int32(rr[7])
	}
	for ; i < n; i++ {
		s0 += q[i] * int32(r[i])
	}
	return s0 + s1 + s2 + s3
}
