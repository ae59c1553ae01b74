package train

import (
	"math"
	"math/rand/v2"
)

// contribution is one encoded text of a batch with the gradient of the loss
// with respect to its unnormalised sum.
type contribution struct {
	sp *sparse
	ds []float32
}

// step runs one batch of in-batch contrastive training (symmetric InfoNCE:
// each query against every code of the batch and each code against every
// query) and returns the batch loss. With tr.neg set, each query's softmax
// also holds the hard negative mined for it (extra code columns that are
// nobody's answer).
func (tr *trainer) step(query, code side, qs, cs []sparse, idx []int, t int) float64 {
	B, D := len(idx), tr.D
	temp := float32(tr.cfg.Temp)
	// The batch's texts, with sub-token dropout on the code side: a cheap
	// augmentation against memorising pairs.
	bq, bc := make([]sparse, B), make([]sparse, B, 2*B)
	in := make(map[int]bool, B)
	for i, k := range idx {
		bq[i] = qs[k]
		bc[i] = tr.dropout(cs[k], uint64(t)<<32|uint64(i))
		in[k] = true
	}
	if tr.neg != nil {
		for _, k := range idx {
			// A negative that is also in the batch is already a column;
			// taking it twice would make it its own query's negative.
			if n := tr.neg[k]; n >= 0 && !in[n] {
				in[n] = true
				bc = append(bc, tr.dropout(cs[n], uint64(t)<<32|uint64(len(bc))))
			}
		}
	}
	C := len(bc)
	uq, uc := make([]float32, B*D), make([]float32, C*D)
	nq, nc := make([]float32, B), make([]float32, C)
	tr.parallel(C, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			if i < B {
				nq[i] = encode(query, &bq[i], uq[i*D:(i+1)*D], D)
			}
			nc[i] = encode(code, &bc[i], uc[i*D:(i+1)*D], D)
		}
	})
	// S[i][j] = cos(q_i, c_j)/temp; G = dLoss/dS.
	S := make([]float32, B*C)
	tr.parallel(B, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			qi := uq[i*D : (i+1)*D]
			for j := 0; j < C; j++ {
				S[i*C+j] = dot(qi, uc[j*D:(j+1)*D]) / temp
			}
		}
	})
	// A pair drawn twice into one batch (a small language repeated) is
	// not its own negative: the copies leave each other's softmax.
	var dup map[[2]int]bool
	first := make(map[int]int, B)
	for i, k := range idx {
		if f, ok := first[k]; ok {
			if dup == nil {
				dup = map[[2]int]bool{}
			}
			for a := f; a < i; a++ {
				if idx[a] == k {
					dup[[2]int{a, i}], dup[[2]int{i, a}] = true, true
				}
			}
		} else {
			first[k] = i
		}
	}
	skip := func(i, j int) bool { return dup != nil && j < B && dup[[2]int{i, j}] }
	G := make([]float32, B*C)
	var loss float64
	for i := 0; i < B; i++ { // rows: query i over every code column
		row := S[i*C : (i+1)*C]
		m := row[i]
		for j, x := range row {
			if !skip(i, j) {
				m = max(m, x)
			}
		}
		var z float64
		for j, x := range row {
			if !skip(i, j) {
				z += math.Exp(float64(x - m))
			}
		}
		loss -= float64(row[i]-m) - math.Log(z)
		for j, x := range row {
			if skip(i, j) {
				continue
			}
			p := float32(math.Exp(float64(x-m)) / z)
			if i == j {
				p--
			}
			G[i*C+j] += 0.5 * p / float32(B)
		}
	}
	for j := 0; j < B; j++ { // columns: code j over queries
		m := S[j*C+j]
		for i := 0; i < B; i++ {
			if !skip(j, i) {
				m = max(m, S[i*C+j])
			}
		}
		var z float64
		for i := 0; i < B; i++ {
			if !skip(j, i) {
				z += math.Exp(float64(S[i*C+j] - m))
			}
		}
		loss -= float64(S[j*C+j]-m) - math.Log(z)
		for i := 0; i < B; i++ {
			if skip(j, i) {
				continue
			}
			p := float32(math.Exp(float64(S[i*C+j]-m)) / z)
			if i == j {
				p--
			}
			G[i*C+j] += 0.5 * p / float32(B)
		}
	}
	// Back through the cosine and the normalisation to the sums.
	dq, dc := make([]float32, B*D), make([]float32, C*D)
	tr.parallel(C, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			if i < B {
				du := dq[i*D : (i+1)*D]
				for j := 0; j < C; j++ {
					axpy(G[i*C+j]/temp, uc[j*D:(j+1)*D], du)
				}
				unnorm(du, uq[i*D:(i+1)*D], nq[i])
			}
			du := dc[i*D : (i+1)*D]
			for j := 0; j < B; j++ {
				axpy(G[j*C+i]/temp, uq[j*D:(j+1)*D], du)
			}
			unnorm(du, uc[i*D:(i+1)*D], nc[i])
		}
	})
	qc := make([]contribution, B)
	cc := make([]contribution, C)
	for i := 0; i < C; i++ {
		if i < B {
			qc[i] = contribution{&bq[i], dq[i*D : (i+1)*D]}
		}
		cc[i] = contribution{&bc[i], dc[i*D : (i+1)*D]}
	}
	if query.table == code.table {
		tr.update(code, append(qc, cc...), t)
	} else {
		tr.update(query, qc, t)
		tr.update(code, cc, t)
	}
	return loss / float64(2*B)
}

// dropout returns sp without a random cfg.Dropout share of its rows
// (deterministic in seed); sp itself when there is nothing to drop.
func (tr *trainer) dropout(sp sparse, seed uint64) sparse {
	p := tr.cfg.Dropout
	if p <= 0 || len(sp.rows) < 4 {
		return sp
	}
	rng := rand.New(rand.NewPCG(seed, tr.cfg.Seed))
	out := sparse{rows: make([]int32, 0, len(sp.rows)), tf: make([]float32, 0, len(sp.rows))}
	for k, r := range sp.rows {
		if rng.Float64() >= p {
			out.rows = append(out.rows, r)
			out.tf = append(out.tf, sp.tf[k])
		}
	}
	if len(out.rows) == 0 {
		return sp
	}
	return out
}

// encode writes the normalised weighted sum of sp's rows into out and
// returns the norm of the sum.
func encode(s side, sp *sparse, out []float32, D int) float32 {
	for k, r := range sp.rows {
		w := s.weight.w[r] * sp.tf[k]
		if w > 0 {
			axpy(w, s.table.w[int(r)*D:int(r+1)*D], out)
		}
	}
	n := float32(math.Sqrt(float64(dot(out, out))))
	if n == 0 {
		return 1
	}
	for j := range out {
		out[j] /= n
	}
	return n
}

// unnorm turns d(loss)/d(u) into d(loss)/d(s) for u = s/|s|, in place.
func unnorm(du, u []float32, n float32) {
	p := dot(u, du)
	for j := range du {
		du[j] = (du[j] - u[j]*p) / n
	}
}

// update accumulates the row gradients of a batch and applies lazy Adam to
// the touched rows only. Rows are sharded across workers by slot.
func (tr *trainer) update(s side, cs []contribution, t int) {
	D := tr.D
	slot := map[int32]int{}
	var touched []int32
	for _, c := range cs {
		for _, r := range c.sp.rows {
			if _, ok := slot[r]; !ok {
				slot[r] = len(touched)
				touched = append(touched, r)
			}
		}
	}
	gE := make([]float32, len(touched)*D)
	gW := make([]float32, len(touched))
	W := max(tr.cfg.Workers, 1)
	tr.parallel(W, func(lo, hi int) {
		for g := lo; g < hi; g++ {
			for _, c := range cs {
				for k, r := range c.sp.rows {
					sl := slot[r]
					if sl%W != g {
						continue
					}
					// Straight-through for the weight, so a row clamped to
					// zero can come back.
					tf := c.sp.tf[k]
					gW[sl] += tf * dot(c.ds, s.table.w[int(r)*D:int(r+1)*D])
					if w := s.weight.w[r]; w > 0 {
						axpy(tf*w, c.ds, gE[sl*D:(sl+1)*D])
					}
				}
			}
		}
	})
	tr.parallel(len(touched), func(lo, hi int) {
		for sl := lo; sl < hi; sl++ {
			r := int(touched[sl])
			s.table.adam(r*D, gE[sl*D:(sl+1)*D], tr.cfg.LR, t)
			s.weight.adam(r, gW[sl:sl+1], tr.cfg.LRWeight, t)
			if s.weight.w[r] < 0 {
				s.weight.w[r] = 0
			}
		}
	})
}

func dot(a, b []float32) float32 {
	var s0, s1, s2, s3 float32
	n := len(a)
	b = b[:n]
	i := 0
	for ; i+4 <= n; i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < n; i++ {
		s0 += a[i] * b[i]
	}
	return s0 + s1 + s2 + s3
}

// axpy adds a*x to y.
func axpy(a float32, x, y []float32) {
	y = y[:len(x)]
	for i, v := range x {
		y[i] += a * v
	}
}
