package vector

import (
	"fmt"
	"math/rand/v2"
)

// SelfCheck runs every kernel this build can run on this CPU over rows and
// queries made from a fixed seed and compares each result with the portable
// kernel's, bit for bit. install.sh runs it (through `git bcindex version
// --check`) before it installs a build, so a kernel that faults or computes
// wrong on the machine is caught there rather than in a search.
func SelfCheck() error {
	rng := rand.New(rand.NewPCG(45, 2))
	for _, dim := range []int{7, 32, 96, 256, 384, 513} {
		const n = 37
		vecs := make([]int8, n*dim)
		for i := range vecs {
			vecs[i] = int8(rng.IntN(255) - 127)
		}
		rows := make([]int, n)
		for i := range rows {
			rows[i] = (i * 7) % n
		}
		v := make([]float32, dim)
		for i := range v {
			v[i] = float32(rng.NormFloat64())
		}
		q, ok := quantizeQuery(v)
		if !ok {
			return fmt.Errorf("vector self-check: query of %d dimensions did not quantise", dim)
		}
		want := make([]int32, n)
		dotRowsGo(q, vecs, rows, want)
		for _, name := range Kernels() {
			got := make([]int32, n)
			allKernels[name](q, vecs, rows, got)
			for j := range want {
				if got[j] != want[j] {
					return fmt.Errorf("vector self-check: kernel %s, %d dimensions, row %d: %d, portable kernel %d", name, dim, rows[j], got[j], want[j])
				}
			}
		}
	}
	return nil
}
