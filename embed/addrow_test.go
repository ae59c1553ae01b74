package embed

import (
	"math/rand"
	"testing"
)

// Every implementation of addScaled the build and CPU can run, whichever
// BCINDEX_KERNEL selects, gives the scalar loop's result bit for bit.
func TestAddScaledMatchesScalar(t *testing.T) {
	t.Logf("implementations: %d", len(addScaledAll))
	for name, f := range addScaledAll {
		t.Run(name, func(t *testing.T) { testAddScaled(t, f) })
	}
}

func testAddScaled(t *testing.T, addScaled func(v []float32, row []int8, w float32)) {
	rng := rand.New(rand.NewSource(1))
	for _, n := range []int{0, 1, 7, 8, 15, 16, 17, 31, 64, 255, 256, 384} {
		row := make([]int8, n)
		for i := range row {
			row[i] = int8(rng.Intn(256) - 128)
		}
		want := make([]float32, n)
		got := make([]float32, n)
		for i := range want {
			want[i] = rng.Float32()*2 - 1
			got[i] = want[i]
		}
		for _, w := range []float32{0.013, -1.7e-3, 3.25} {
			addScaledGo(want, row, w)
			addScaled(got, row, w)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("n=%d: lane %d is %v, want %v", n, i, got[i], want[i])
			}
		}
	}
}

func BenchmarkAddScaled(b *testing.B) {
	row := make([]int8, 256)
	v := make([]float32, 256)
	for i := range row {
		row[i] = int8(i)
	}
	for b.Loop() {
		addScaled(v, row, 0.5)
	}
}
