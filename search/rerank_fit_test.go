package search

import (
	"math"
	"sort"
)

// Fitting the second stage: a linear model over standardised features,
// trained listwise (softmax cross-entropy of each query's pool against its
// answers), and the ranking it gives a pool once collapse has folded
// blocks into their functions and copies into one hit.

// fitOptions are the training settings.
type fitOptions struct {
	epochs int
	rate   float64            // Adam's step
	l2     float64            // weight decay
	weight map[string]float64 // per set: how much a query counts (default 1)
	trees  treeOptions        // boosted on top of the linear model (rounds 0: none)
	// only, when set, names the features the model may use (the others
	// weigh nothing and no tree splits on them): ablations.
	only map[int]bool
	// union trains towards the answers as a whole: the loss is -log of the
	// probability the model gives all the rows covering a target (a
	// target's file has many chunks, and it is found when its best one
	// ranks), not a share spread evenly over those rows.
	union bool
}

// defaultFit is the chunks' model: the quality suite's dev half, over the
// features before the file's (fFileText), which are what a definition is
// ranked by.
func defaultFit() fitOptions {
	o := fitOptions{epochs: 300, rate: 0.05, l2: 1e-3, weight: map[string]float64{"questions": 10},
		trees: treeOptions{rounds: 20, depth: 3, shrink: 0.3, lambda: 1, minHess: 5}}
	o.firstFeatures(fFileText)
	return o
}

// filesFit is the files' model (search --files): the quality suite's dev
// half and the dev code-search suite together, over every feature, towards
// a target's rows as a whole.
func filesFit() fitOptions {
	return fitOptions{epochs: 300, rate: 0.05, l2: 1e-3, union: true, weight: map[string]float64{"questions": 10, "doc-stripped": 2, devSuiteSet: 5},
		trees: treeOptions{rounds: 20, depth: 3, shrink: 0.3, lambda: 1, minHess: 5}}
}

// firstFeatures limits the model to the first n features; fit writes a
// model of those only.
func (o *fitOptions) firstFeatures(n int) {
	o.only = map[int]bool{}
	for i := range n {
		o.only[i] = true
	}
	o.trees.only = o.only
}

// fit trains a model on the queries whose pool holds an answer.
func fit(qs []poolQuery, o fitOptions) *rerankModel {
	m := &rerankModel{Features: rerankFeatureNames, Mean: make([]float64, nFeatures), Scale: make([]float64, nFeatures), Weights: make([]float64, nFeatures)}
	var n float64
	for _, q := range qs {
		for _, r := range q.Rows {
			for i, x := range r.X {
				m.Mean[i] += x
			}
			n++
		}
	}
	for i := range m.Mean {
		m.Mean[i] /= n
	}
	for _, q := range qs {
		for _, r := range q.Rows {
			for i, x := range r.X {
				d := x - m.Mean[i]
				m.Scale[i] += d * d
			}
		}
	}
	for i := range m.Scale {
		if o.only != nil && !o.only[i] {
			m.Scale[i] = 0
			continue
		}
		if sd := math.Sqrt(m.Scale[i] / n); sd > 1e-9 {
			m.Scale[i] = 1 / sd
		} else {
			m.Scale[i] = 0
		}
	}
	// Standardised copies of the pools that hold an answer.
	type fq struct {
		x      [][nFeatures]float64
		t      []float64
		groups [][]int
		wt     float64
	}
	var data []fq
	for _, q := range qs {
		npos := q.answers()
		if npos == 0 {
			continue
		}
		d := fq{wt: o.weightOf(q), groups: q.groups()}
		for _, r := range q.Rows {
			var x [nFeatures]float64
			for i := range x {
				x[i] = (r.X[i] - m.Mean[i]) * m.Scale[i]
			}
			d.x = append(d.x, x)
			t := 0.0
			if r.Pos {
				t = 1 / float64(npos)
			}
			d.t = append(d.t, t)
		}
		data = append(data, d)
	}
	// Start from the first stage's order.
	w := m.Weights
	w[0] = 3
	var mom, vel [nFeatures]float64
	const b1, b2, eps = 0.9, 0.999, 1e-8
	var s, tbuf []float64
	for epoch := 1; epoch <= o.epochs; epoch++ {
		var g [nFeatures]float64
		total := 0.0
		for _, d := range data {
			s = s[:0]
			hi := math.Inf(-1)
			for _, x := range d.x {
				v := 0.0
				for i := range x {
					v += w[i] * x[i]
				}
				s = append(s, v)
				hi = max(hi, v)
			}
			z := 0.0
			for i := range s {
				s[i] = math.Exp(s[i] - hi)
				z += s[i]
			}
			for i := range s {
				s[i] /= z
			}
			t := d.t
			if o.union {
				t = unionTargets(s, d.groups, tbuf[:0])
				tbuf = t
			}
			for k, x := range d.x {
				c := d.wt * (s[k] - t[k])
				if c == 0 {
					continue
				}
				for i := range x {
					g[i] += c * x[i]
				}
			}
			total += d.wt
		}
		for i := range g {
			g[i] = g[i]/total + o.l2*w[i]
			mom[i] = b1*mom[i] + (1-b1)*g[i]
			vel[i] = b2*vel[i] + (1-b2)*g[i]*g[i]
			mh := mom[i] / (1 - math.Pow(b1, float64(epoch)))
			vh := vel[i] / (1 - math.Pow(b2, float64(epoch)))
			w[i] -= o.rate * mh / (math.Sqrt(vh) + eps)
		}
	}
	if o.trees.rounds > 0 {
		boost(m, qs, o, o.trees)
	}
	// A model limited to the first features lists those only.
	if n := len(o.only); n > 0 && n < nFeatures && o.only[n-1] {
		m.Features, m.Mean, m.Scale, m.Weights = m.Features[:n], m.Mean[:n], m.Scale[:n], m.Weights[:n]
	}
	return m
}

// simRR is the reciprocal rank (0 beyond 10) of a pool's answer when it
// is ordered by score and collapsed as search collapses hits.
func simRR(rows []poolRow, score func(*poolRow) float64) float64 {
	idx := make([]int, len(rows))
	s := make([]float64, len(rows))
	for i := range rows {
		idx[i], s[i] = i, score(&rows[i])
	}
	sort.SliceStable(idx, func(a, b int) bool { return s[idx[a]] > s[idx[b]] })
	seen := map[[2]int]bool{}
	text := map[[16]byte]bool{}
	rank := 0
	for _, i := range idx {
		r := &rows[i]
		if seen[r.Owner] || r.Indexed && text[r.Hash] {
			continue
		}
		seen[r.Owner] = true
		if r.Indexed {
			text[r.Hash] = true
		}
		rank++
		if rank > 10 {
			return 0
		}
		if r.Pos {
			return 1 / float64(rank)
		}
	}
	return 0
}

// firstOrder scores a pool row by the first stage.
func firstOrder(r *poolRow) float64 { return r.X[0] }

// modelOrder scores a pool row by m, as rerank does (a logistic of the
// model's value, so that a decay scales it as it scales a search's).
func modelOrder(m *rerankModel) func(*poolRow) float64 {
	return func(r *poolRow) float64 { return 1 / (1 + math.Exp(-m.score(&r.X))) }
}

// answers counts the rows of a pool that answer its query.
func (q *poolQuery) answers() int {
	n := 0
	for _, r := range q.Rows {
		if r.Pos {
			n++
		}
	}
	return n
}

// weightOf is how much a query counts in training.
func (o fitOptions) weightOf(q poolQuery) float64 {
	if w, ok := o.weight[q.Set]; ok {
		return w
	}
	return 1
}

// groups lists, per target of a query, the rows covering it: one target
// (its answers) for a quality-suite query, each of its targets for a
// code-search suite's.
func (q *poolQuery) groups() [][]int {
	if q.Set != devSuiteSet {
		var g []int
		for i, r := range q.Rows {
			if r.Pos {
				g = append(g, i)
			}
		}
		return [][]int{g}
	}
	by := map[int][]int{}
	var order []int
	for i, r := range q.Rows {
		for _, t := range r.Covers {
			if by[t] == nil {
				order = append(order, t)
			}
			by[t] = append(by[t], i)
		}
	}
	out := make([][]int, 0, len(order))
	for _, t := range order {
		out = append(out, by[t])
	}
	return out
}

// unionTargets are the targets of the union loss for probabilities p:
// each target's share (1 over the targets) spread over its rows in
// proportion to p.
func unionTargets(p []float64, groups [][]int, t []float64) []float64 {
	t = append(t[:0], make([]float64, len(p))...)
	n := 0
	for _, g := range groups {
		if len(g) > 0 {
			n++
		}
	}
	for _, g := range groups {
		z := 0.0
		for _, i := range g {
			z += p[i]
		}
		for _, i := range g {
			if z > 0 {
				t[i] += p[i] / z / float64(n)
			} else {
				t[i] += 1 / float64(len(g)*n)
			}
		}
	}
	return t
}
