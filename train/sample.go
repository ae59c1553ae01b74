package train

import (
	"math/rand/v2"
	"sort"
)

// Sample returns n pairs chosen at random (seeded, so the same corpus and
// seed give the same sample), in their corpus order; all of them when
// n <= 0 or there are no more than n. Training time grows with the pairs,
// so a corpus larger than a training run can afford is sampled evenly
// rather than cut, which would drop whole packages (the corpus is sorted
// by package).
func Sample(pairs []Pair, n int, seed uint64) []Pair {
	if n <= 0 || len(pairs) <= n {
		return pairs
	}
	rng := rand.New(rand.NewPCG(seed, 0x73616d70))
	idx := rng.Perm(len(pairs))[:n]
	sort.Ints(idx)
	out := make([]Pair, n)
	for i, j := range idx {
		out[i] = pairs[j]
	}
	return out
}
