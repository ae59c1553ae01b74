package train

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
)

// ParseMix reads a kind mix, "doc=1,name=0.5,path=0.1": each kind's share
// of the pairs trained on, relative to the others' (a kind left out is not
// trained on). "" is doc pairs only.
func ParseMix(s string) (map[string]float64, error) {
	m := map[string]float64{}
	if strings.TrimSpace(s) == "" {
		m[KindDoc] = 1
		return m, nil
	}
	for _, part := range strings.Split(s, ",") {
		name, val, ok := strings.Cut(strings.TrimSpace(part), "=")
		w, err := strconv.ParseFloat(val, 64)
		if !ok || err != nil || w < 0 || math.IsInf(w, 0) || math.IsNaN(w) {
			return nil, fmt.Errorf("mix %q: want kind=weight, e.g. doc=1,name=0.5,path=0.1", part)
		}
		switch name {
		case "doc":
			m[KindDoc] = w
		case KindName, KindPath:
			m[name] = w
		default:
			return nil, fmt.Errorf("mix %q: unknown kind %q (doc, name, path)", part, name)
		}
	}
	return m, nil
}

// Mix chooses the pairs of one training run: n in all (0: as many as the
// mixed kinds hold), each kind's share set by mix, and within a kind each
// language's share proportional to its pair count raised to langTemp (1:
// as mined; 0.5 lifts the small languages; 0: every language alike). A
// language with fewer pairs than its share is repeated, in fresh seeded
// orders; a larger one is sampled without repeats. The result is in corpus
// order and the same for the same corpus, settings and seed.
func Mix(pairs []Pair, mix map[string]float64, langTemp float64, n int, seed uint64) []Pair {
	groups := map[string]map[string][]int{} // kind → language → pair indices
	var total float64
	count := 0
	for i, p := range pairs {
		if mix[p.Kind] <= 0 {
			continue
		}
		if groups[p.Kind] == nil {
			groups[p.Kind] = map[string][]int{}
		}
		groups[p.Kind][p.Lang] = append(groups[p.Kind][p.Lang], i)
		count++
	}
	if count == 0 {
		return nil
	}
	if n <= 0 {
		n = count
	}
	for k := range groups {
		total += mix[k]
	}
	rng := rand.New(rand.NewPCG(seed, 0x6d697821))
	var chosen []int
	for _, k := range sortedKeys(groups) {
		byLang := groups[k]
		want := float64(n) * mix[k] / total
		var z float64
		for _, idx := range byLang {
			z += math.Pow(float64(len(idx)), langTemp)
		}
		for _, lang := range sortedKeys(byLang) {
			idx := byLang[lang]
			m := int(math.Round(want * math.Pow(float64(len(idx)), langTemp) / z))
			for m > 0 {
				perm := rng.Perm(len(idx))
				take := min(m, len(idx))
				for _, j := range perm[:take] {
					chosen = append(chosen, idx[j])
				}
				m -= take
			}
		}
	}
	sort.Ints(chosen)
	out := make([]Pair, len(chosen))
	for i, j := range chosen {
		out[i] = pairs[j]
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// batches cuts a permutation of the pairs into batches of size b. With by
// set ("lang" or "src"), a batch holds pairs of one language or one
// package where that group fills it, so its negatives are as alike as a
// search's candidates (one repository, mostly one language); what is left
// of each group is batched together, in permutation order. The batches
// come out in a seeded order. A remainder smaller than b is dropped.
func batches(pairs []Pair, perm []int, b int, by string, rng *rand.Rand) [][]int {
	var out [][]int
	if by == "" {
		for s := 0; s+b <= len(perm); s += b {
			out = append(out, perm[s:s+b])
		}
		return out
	}
	key := func(p Pair) string {
		if by == "src" {
			return p.Src
		}
		return p.Lang
	}
	groups := map[string][]int{}
	var order []string
	for _, i := range perm {
		k := key(pairs[i])
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], i)
	}
	var rest []int
	for _, k := range order {
		g := groups[k]
		s := 0
		for ; s+b <= len(g); s += b {
			out = append(out, g[s:s+b])
		}
		rest = append(rest, g[s:]...)
	}
	for s := 0; s+b <= len(rest); s += b {
		out = append(out, rest[s:s+b])
	}
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}
