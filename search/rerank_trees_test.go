package search

import (
	"math"
	"sort"
)

// Boosted trees on top of the linear model: each round fits a small
// regression tree to the Newton step of the listwise loss (softmax over a
// query's pool), on features cut into quantile bins.

// treeOptions are the boosting settings.
type treeOptions struct {
	rounds, depth int
	shrink        float64 // each tree's step
	lambda        float64 // leaf regularisation
	minHess       float64 // the least hessian a leaf holds
	only          map[int]bool
}

const treeBins = 32

// boostData is the training set laid out for boosting.
type boostData struct {
	qs     [][2]int  // each query's rows [from, to)
	groups [][][]int // each query's targets' rows (see poolQuery.groups)
	wt     []float64
	t      []float64 // each row's target share
	bins   [][nFeatures]uint8
	cuts   [nFeatures][]float64
	score  []float64
}

func newBoostData(qs []poolQuery, m *rerankModel, o fitOptions) *boostData {
	d := &boostData{}
	var all [][nFeatures]float64
	for _, q := range qs {
		npos := q.answers()
		if npos == 0 {
			continue
		}
		d.qs = append(d.qs, [2]int{len(all), len(all) + len(q.Rows)})
		d.groups = append(d.groups, q.groups())
		d.wt = append(d.wt, o.weightOf(q))
		for _, r := range q.Rows {
			all = append(all, r.X)
			t := 0.0
			if r.Pos {
				t = 1 / float64(npos)
			}
			d.t = append(d.t, t)
			d.score = append(d.score, m.score(&r.X))
		}
	}
	// Quantile cuts from every 7th row.
	for f := range nFeatures {
		var vs []float64
		for i := 0; i < len(all); i += 7 {
			vs = append(vs, all[i][f])
		}
		sort.Float64s(vs)
		var cuts []float64
		for b := 1; b < treeBins; b++ {
			c := vs[b*len(vs)/treeBins]
			if len(cuts) == 0 || c > cuts[len(cuts)-1] {
				cuts = append(cuts, c)
			}
		}
		d.cuts[f] = cuts
	}
	d.bins = make([][nFeatures]uint8, len(all))
	for i, x := range all {
		for f := range nFeatures {
			d.bins[i][f] = uint8(sort.SearchFloat64s(d.cuts[f], x[f]))
		}
	}
	return d
}

// boost adds o.rounds trees to m, fitted on qs.
func boost(m *rerankModel, qs []poolQuery, fo fitOptions, o treeOptions) {
	d := newBoostData(qs, m, fo)
	g := make([]float64, len(d.t))
	h := make([]float64, len(d.t))
	for range o.rounds {
		for qi, q := range d.qs {
			hi := math.Inf(-1)
			for i := q[0]; i < q[1]; i++ {
				hi = max(hi, d.score[i])
			}
			z := 0.0
			for i := q[0]; i < q[1]; i++ {
				z += math.Exp(d.score[i] - hi)
			}
			p := make([]float64, q[1]-q[0])
			for i := q[0]; i < q[1]; i++ {
				p[i-q[0]] = math.Exp(d.score[i]-hi) / z
			}
			t := d.t[q[0]:q[1]]
			if fo.union {
				t = unionTargets(p, d.groups[qi], nil)
			}
			for i := q[0]; i < q[1]; i++ {
				pi := p[i-q[0]]
				g[i] = d.wt[qi] * (pi - t[i-q[0]])
				h[i] = d.wt[qi] * max(pi*(1-pi), 1e-6)
			}
		}
		rows := make([]int, len(d.t))
		for i := range rows {
			rows[i] = i
		}
		var tree []treeNode
		d.grow(&tree, rows, g, h, o, 0)
		m.Trees = append(m.Trees, tree)
		for i := range d.score {
			d.score[i] += d.value(tree, i)
		}
	}
}

// value is a tree's value for training row i, read from its bins.
func (d *boostData) value(t []treeNode, i int) float64 {
	n := 0
	for t[n].F >= 0 {
		if int(d.bins[i][t[n].F]) <= d.cutIndex(t[n].F, t[n].T) {
			n = t[n].L
		} else {
			n = t[n].R
		}
	}
	return t[n].V
}

// cutIndex is the bin whose upper cut is T (x <= T holds for bins up to it).
func (d *boostData) cutIndex(f int, t float64) int {
	return sort.SearchFloat64s(d.cuts[f], t)
}

// grow appends the subtree over rows to tree and returns its index.
func (d *boostData) grow(tree *[]treeNode, rows []int, g, h []float64, o treeOptions, depth int) int {
	at := len(*tree)
	*tree = append(*tree, treeNode{F: -1})
	var G, H float64
	for _, i := range rows {
		G, H = G+g[i], H+h[i]
	}
	(*tree)[at].V = -o.shrink * G / (H + o.lambda)
	if depth == o.depth {
		return at
	}
	best, bestF, bestB := 0.0, -1, 0
	var hg, hh [treeBins]float64
	for f := range nFeatures {
		if o.only != nil && !o.only[f] {
			continue
		}
		hg, hh = [treeBins]float64{}, [treeBins]float64{}
		for _, i := range rows {
			b := d.bins[i][f]
			hg[b] += g[i]
			hh[b] += h[i]
		}
		var gl, hl float64
		for b := 0; b < len(d.cuts[f]); b++ {
			gl, hl = gl+hg[b], hl+hh[b]
			gr, hr := G-gl, H-hl
			if hl < o.minHess || hr < o.minHess {
				continue
			}
			gain := gl*gl/(hl+o.lambda) + gr*gr/(hr+o.lambda) - G*G/(H+o.lambda)
			if gain > best {
				best, bestF, bestB = gain, f, b
			}
		}
	}
	if bestF < 0 {
		return at
	}
	var left, right []int
	for _, i := range rows {
		if int(d.bins[i][bestF]) <= bestB {
			left = append(left, i)
		} else {
			right = append(right, i)
		}
	}
	(*tree)[at].F, (*tree)[at].T = bestF, d.cuts[bestF][bestB]
	l := d.grow(tree, left, g, h, o, depth+1)
	r := d.grow(tree, right, g, h, o, depth+1)
	(*tree)[at].L, (*tree)[at].R = l, r
	return at
}
