package train

// maxHardPool bounds the candidates of one pair's hard negative: in a
// directory with more documented functions, the maxHardPool nearest in
// corpus order.
const maxHardPool = 256

// hardNegatives picks, for each pair, another pair of the same package
// directory (same Src and Dir) whose code shares the most of the query's
// sub-tokens, weighted by IDF, without being the pair's own code or
// answering the same query: the function beside the answer that a bag of
// words confuses with it. In-batch negatives come from random packages and
// are mostly easy; these teach what tells neighbours apart. The result is
// -1 where a directory has no other pair. Deterministic: ties go to the
// lower index.
func hardNegatives(pairs []Pair, qs, cs []sparse, idf []float32) []int {
	groups := map[string][]int{}
	var keys []string
	for i, p := range pairs {
		k := p.Src + "\x00" + p.Dir
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], i)
	}
	neg := make([]int, len(pairs))
	for i := range neg {
		neg[i] = -1
	}
	for _, k := range keys {
		g := groups[k]
		for pos, i := range g {
			lo, hi := max(0, pos-maxHardPool/2), min(len(g), pos+maxHardPool/2)
			best, bestScore := -1, float32(0)
			for _, j := range g[lo:hi] {
				if j == i || pairs[j].Code == pairs[i].Code || pairs[j].Query == pairs[i].Query {
					continue
				}
				if s := overlap(qs[i].rows, cs[j].rows, idf); s > bestScore {
					best, bestScore = j, s
				}
			}
			neg[i] = best
		}
	}
	return neg
}

// overlap sums the weights of the rows two sorted row lists share.
func overlap(a, b []int32, w []float32) float32 {
	var s float32
	for x, y := 0, 0; x < len(a) && y < len(b); {
		switch {
		case a[x] < b[y]:
			x++
		case a[x] > b[y]:
			y++
		default:
			s += w[a[x]]
			x++
			y++
		}
	}
	return s
}
