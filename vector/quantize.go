package vector

import (
	"math"
	"unsafe"
)

// maxDim is the largest vector dimension supported by segments.
const maxDim = 1 << 16

// Quantize maps an L2-normalised vector to int8 with a per-vector scale (v ≈ q*scale).
//
// q has len(v) values in [-127, 127] and scale = max|v_i|/127, so that
// |v_i - q_i*scale| <= scale/2. If v is empty, all zero, or has a NaN or
// infinite component, q is all zero and scale is 0: the row has no vector and
// never matches a query.
func Quantize(v []float32) (q []int8, scale float32) {
	q = make([]int8, len(v))
	var maxAbs float64
	for _, x := range v {
		a := math.Abs(float64(x))
		if !(a <= math.MaxFloat32) { // NaN or ±Inf
			return q, 0
		}
		if a > maxAbs {
			maxAbs = a
		}
	}
	if maxAbs == 0 {
		return q, 0
	}
	scale = float32(maxAbs / 127)
	if scale == 0 { // max|v_i| is subnormal: nothing survives the scale
		return q, 0
	}
	inv := 127 / maxAbs
	for i, x := range v {
		r := math.Round(float64(x) * inv)
		// float64 rounding cannot push |r| past 127, but be explicit.
		r = min(max(r, -127), 127)
		q[i] = int8(r)
	}
	return q, scale
}

// int8Bytes views an int8 slice as bytes without copying.
func int8Bytes(q []int8) []byte {
	if len(q) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(q))), len(q))
}
