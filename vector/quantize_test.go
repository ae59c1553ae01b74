package vector

import (
	"math"
	"math/rand/v2"
	"testing"
)

func randUnit(rng *rand.Rand, dim int) []float32 {
	v := make([]float32, dim)
	var n float64
	for i := range v {
		x := rng.NormFloat64()
		v[i] = float32(x)
		n += x * x
	}
	n = math.Sqrt(n)
	for i := range v {
		v[i] = float32(float64(v[i]) / n)
	}
	return v
}

func TestQuantize(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	inf := float32(math.Inf(1))
	nan := float32(math.NaN())
	tests := []struct {
		name      string
		v         []float32
		wantScale float32 // -1: check max|v|/127
	}{
		{"empty", nil, 0},
		{"zero", make([]float32, 8), 0},
		{"nan", []float32{0.5, nan, 0.1}, 0},
		{"inf", []float32{0.5, -inf}, 0},
		{"subnormal", []float32{math.SmallestNonzeroFloat32, 0}, 0},
		{"single", []float32{1}, -1},
		{"negative max", []float32{0.25, -0.75, 0.5}, -1},
		{"tiny", []float32{1e-30, -2e-30}, -1},
		{"huge", []float32{3e38, -1e38}, -1},
		{"unit 3", randUnit(rng, 3), -1},
		{"unit 256", randUnit(rng, 256), -1},
		{"unit 384", randUnit(rng, 384), -1},
		{"unit 1024", randUnit(rng, 1024), -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q, scale := Quantize(tc.v)
			if len(q) != len(tc.v) {
				t.Fatalf("len(q) = %d, want %d", len(q), len(tc.v))
			}
			if tc.wantScale == 0 {
				if scale != 0 {
					t.Fatalf("scale = %v, want 0", scale)
				}
				for i, x := range q {
					if x != 0 {
						t.Fatalf("q[%d] = %d, want 0", i, x)
					}
				}
				return
			}
			var maxAbs float64
			for _, x := range tc.v {
				maxAbs = max(maxAbs, math.Abs(float64(x)))
			}
			if want := float32(maxAbs / 127); scale != want {
				t.Fatalf("scale = %v, want %v", scale, want)
			}
			var peak int
			for i, x := range tc.v {
				if q[i] < -127 {
					t.Fatalf("q[%d] = %d < -127", i, q[i])
				}
				peak = max(peak, abs(int(q[i])))
				// Bound: half a step, plus up to 127 times the float32
				// rounding error of the scale (relative 2^-24).
				err := math.Abs(float64(x) - float64(q[i])*float64(scale))
				if bound := float64(scale) * (0.5 + 128*0x1p-24); err > bound {
					t.Fatalf("component %d: |%v - %d*%v| = %g > %g", i, x, q[i], scale, err, bound)
				}
			}
			if peak != 127 {
				t.Fatalf("largest |q| = %d, want 127", peak)
			}
		})
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
