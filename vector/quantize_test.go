package vector

import (
	"bytes"
	"errors"
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

func TestKey(t *testing.T) {
	hash := bytes.Repeat([]byte{0xab}, 16)
	got := Key("builtin-code-v1", hash)
	want := append([]byte("v/builtin-code-v1/"), hash...)
	if !bytes.Equal(got, want) {
		t.Fatalf("Key = %q, want %q", got, want)
	}
}

func TestEncodeDecode(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	q256, s256 := Quantize(randUnit(rng, 256))
	tests := []struct {
		name  string
		q     []int8
		scale float32
	}{
		{"no vector", nil, 0},
		{"one", []int8{-127}, 0.5},
		{"extremes", []int8{-128, 127, 0, -1}, math.MaxFloat32},
		{"256", q256, s256},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := Encode(tc.q, tc.scale)
			if len(b) != recordHeader+len(tc.q) {
				t.Fatalf("len = %d", len(b))
			}
			q, scale, err := Decode(b)
			if err != nil {
				t.Fatal(err)
			}
			if scale != tc.scale || len(q) != len(tc.q) || (tc.q == nil) != (q == nil) {
				t.Fatalf("Decode = %v, %v; want %v, %v", q, scale, tc.q, tc.scale)
			}
			for i := range q {
				if q[i] != tc.q[i] {
					t.Fatalf("q[%d] = %d, want %d", i, q[i], tc.q[i])
				}
			}
			// The result must not alias the input.
			for i := recordHeader; i < len(b); i++ {
				b[i] ^= 0xff
			}
			for i := range q {
				if q[i] != tc.q[i] {
					t.Fatalf("Decode result aliases its input")
				}
			}
		})
	}
}

func TestDecodeCorrupt(t *testing.T) {
	good := Encode([]int8{1, 2, 3}, 0.25)
	mod := func(f func(b []byte) []byte) []byte {
		return f(append([]byte(nil), good...))
	}
	tests := []struct {
		name string
		b    []byte
		want error
	}{
		{"nil", nil, errShortRecord},
		{"short header", good[:recordHeader-1], errShortRecord},
		{"version 0", mod(func(b []byte) []byte { b[0] = 0; return b }), errRecordVersion},
		{"version 2", mod(func(b []byte) []byte { b[0] = 2; return b }), errRecordVersion},
		{"missing byte", good[:len(good)-1], errRecordLength},
		{"extra byte", append(append([]byte(nil), good...), 0), errRecordLength},
		{"huge dim", mod(func(b []byte) []byte { b[4] = 0x80; return b }), errRecordLength},
		{"nan scale", Encode([]int8{1}, float32(math.NaN())), errRecordScale},
		{"inf scale", Encode([]int8{1}, float32(math.Inf(1))), errRecordScale},
		{"negative scale", Encode([]int8{1}, -1), errRecordScale},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q, scale, err := Decode(tc.b)
			if !errors.Is(err, tc.want) {
				t.Fatalf("Decode err = %v, want %v", err, tc.want)
			}
			if q != nil || scale != 0 {
				t.Fatalf("Decode returned data with an error: %v, %v", q, scale)
			}
		})
	}
}
