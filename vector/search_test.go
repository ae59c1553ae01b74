package vector

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/bits-and-blooms/bitset"
)

// withKernels runs f once per kernel available in this build ("go" always;
// "avx2"/"avx512" under GOEXPERIMENT=simd on capable CPUs).
func withKernels(t *testing.T, f func(t *testing.T, dot kernel)) {
	names := make([]string, 0, len(allKernels))
	for name := range allKernels {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		t.Run(name, func(t *testing.T) { f(t, allKernels[name]) })
	}
}

func naiveDot(q *query, row []int8) int64 {
	var s int64
	for i, x := range row {
		s += int64(q.q32[i]) * int64(x)
	}
	return s
}

func TestKernels(t *testing.T) {
	t.Logf("default kernel: %s", kernelName)
	rng := rand.New(rand.NewPCG(5, 6))
	dims := []int{1, 2, 3, 7, 8, 15, 16, 17, 31, 32, 33, 47, 48, 63, 64, 100, 255, 256, 384, 512, 513, 768, 1024}
	withKernels(t, func(t *testing.T, dot kernel) {
		for _, dim := range dims {
			qmax := int32(queryMax)
			queries := map[string]*query{}
			if q, ok := quantizeQuery(randUnit(rng, dim)); ok {
				queries["random"] = q
			}
			// Worst case magnitude: every product is 128*qmax.
			ext := &query{q8: make([]int8, dim), q32: make([]int32, dim)}
			for i := range ext.q32 {
				ext.q32[i], ext.q8[i] = -qmax, int8(-qmax)
			}
			ext.setBias()
			queries["extreme"] = ext
			// The unsigned bytes' largest pair sums: rows of 127 (255 once
			// flipped) times +qmax.
			pos := &query{q8: make([]int8, dim), q32: make([]int32, dim)}
			for i := range pos.q32 {
				pos.q32[i], pos.q8[i] = qmax, int8(qmax)
			}
			pos.setBias()
			queries["extreme positive"] = pos
			for _, nrows := range []int{0, 1, 3, 4, 5, 9, 64} {
				vecs := make([]int8, nrows*dim)
				for i := range vecs {
					vecs[i] = int8(rng.Uint32())
				}
				if nrows > 0 {
					for i := 0; i < dim; i++ {
						vecs[i] = -128 // row 0 all -128
					}
				}
				if nrows > 1 {
					for i := dim; i < 2*dim; i++ {
						vecs[i] = 127 // row 1 all 127
					}
				}
				// Contiguous rows, then a shuffled selection with repeats.
				idx := make([]int, nrows)
				for i := range idx {
					idx[i] = i
				}
				var shuffled []int
				if nrows > 0 {
					for range nrows + 2 {
						shuffled = append(shuffled, rng.IntN(nrows))
					}
				}
				for qname, q := range queries {
					for _, rows := range [][]int{idx, shuffled} {
						out := make([]int32, len(rows))
						dot(q, vecs, rows, out)
						for j, r := range rows {
							want := naiveDot(q, vecs[r*dim:(r+1)*dim])
							if int64(out[j]) != want {
								t.Fatalf("dim %d rows %v %s query: row %d dot %d, want %d", dim, rows, qname, r, out[j], want)
							}
						}
					}
				}
			}
		}
	})
}

type testData struct {
	dim    int
	floats [][]float32 // nil: no vector
	rows   [][]int8
	scales []float32
	seg    *Segment
}

func makeData(t *testing.T, rng *rand.Rand, dim, rows, nilEvery int) *testData {
	d := &testData{dim: dim}
	for i := 0; i < rows; i++ {
		if nilEvery > 0 && i%nilEvery == nilEvery-1 {
			d.floats = append(d.floats, nil)
			d.rows = append(d.rows, nil)
			d.scales = append(d.scales, 0)
			continue
		}
		v := randUnit(rng, dim)
		q, s := Quantize(v)
		d.floats = append(d.floats, v)
		d.rows = append(d.rows, q)
		d.scales = append(d.scales, s)
	}
	path := filepath.Join(t.TempDir(), "seg")
	writeSegment(t, path, dim, d.rows, d.scales)
	d.seg = openSegment(t, path)
	return d
}

// eligible lists the rows Search may return.
func (d *testData) eligible(allow *bitset.BitSet) []int {
	var rows []int
	for i, r := range d.rows {
		if r != nil && (allow == nil || allow.Test(uint(i))) {
			rows = append(rows, i)
		}
	}
	return rows
}

// exactTopK is the integer reference: the same quantised query and score
// formula as Search, a naive loop, and a full sort.
func (d *testData) exactTopK(query []float32, k int, allow *bitset.BitSet) []Hit {
	q, ok := quantizeQuery(query)
	if !ok {
		return nil
	}
	var all []Hit
	for _, i := range d.eligible(allow) {
		dot := int32(naiveDot(q, d.rows[i]))
		all = append(all, Hit{Row: i, Score: float32(dot) * q.factor * d.scales[i]})
	}
	slices.SortFunc(all, func(a, b Hit) int {
		if a.Score != b.Score {
			if a.Score > b.Score {
				return -1
			}
			return 1
		}
		return a.Row - b.Row
	})
	if len(all) > k {
		all = all[:k]
	}
	return all
}

// checkFloatReference checks hits against float64 cosines of the query with
// the dequantised rows: every score within its query-quantisation error bound,
// and the hit set a valid top k (no excluded row provably better than an
// included one; ties within the bound may go either way).
func (d *testData) checkFloatReference(t *testing.T, query []float32, k int, allow *bitset.BitSet, hits []Hit) {
	t.Helper()
	q, _ := quantizeQuery(query)
	var norm float64
	for _, x := range query {
		norm += float64(x) * float64(x)
	}
	norm = math.Sqrt(norm)
	elig := d.eligible(allow)
	ref := map[int]float64{}
	bound := map[int]float64{}
	for _, i := range elig {
		var dot, l1 float64
		for j, x := range d.rows[i] {
			dot += float64(query[j]) / norm * float64(x) * float64(d.scales[i])
			l1 += math.Abs(float64(x))
		}
		ref[i] = dot
		// Query components are off by at most half a step (factor), plus
		// float32 rounding of the score.
		bound[i] = 0.5*float64(q.factor)*float64(d.scales[i])*l1 + 1e-6*math.Abs(dot) + 1e-9
	}
	if want := min(k, len(elig)); len(hits) != want {
		t.Fatalf("%d hits, want %d", len(hits), want)
	}
	in := map[int]bool{}
	worstLow := math.Inf(1) // lowest upper bound of an included row's true score
	for n, h := range hits {
		r, ok := ref[h.Row]
		if !ok {
			t.Fatalf("hit %d: row %d is not eligible", n, h.Row)
		}
		if in[h.Row] {
			t.Fatalf("row %d returned twice", h.Row)
		}
		in[h.Row] = true
		if math.Abs(float64(h.Score)-r) > bound[h.Row] {
			t.Fatalf("row %d score %v, reference %v ± %g", h.Row, h.Score, r, bound[h.Row])
		}
		if n > 0 && worse(hits[n-1], h) {
			t.Fatalf("hits out of order at %d: %v then %v", n, hits[n-1], h)
		}
		worstLow = min(worstLow, r+bound[h.Row])
	}
	for _, i := range elig {
		if !in[i] && ref[i]-bound[i] > worstLow {
			t.Fatalf("row %d (reference %v) excluded but better than an included row (%v)", i, ref[i], worstLow)
		}
	}
}

func TestSearchMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	type allowKind int
	const (
		allowNil allowKind = iota
		allowAll
		allowDense  // ~90% of rows
		allowSparse // ~3% of rows
		allowPrefix // Len shorter than the segment
		allowLong   // Len longer than the segment, extra bits set
		allowEmpty
	)
	mkAllow := func(kind allowKind, rows int) *bitset.BitSet {
		switch kind {
		case allowNil:
			return nil
		case allowAll:
			b := bitset.New(uint(rows))
			return b.FlipRange(0, uint(rows))
		case allowDense, allowSparse:
			p := 0.9
			if kind == allowSparse {
				p = 0.03
			}
			b := bitset.New(uint(rows))
			for i := 0; i < rows; i++ {
				if rng.Float64() < p {
					b.Set(uint(i))
				}
			}
			return b
		case allowPrefix:
			b := bitset.New(uint(rows / 3))
			return b.FlipRange(0, uint(rows/3))
		case allowLong:
			b := bitset.New(uint(rows + 1000))
			return b.FlipRange(0, uint(rows+1000))
		}
		return bitset.New(0)
	}
	tests := []struct {
		dim, rows, k, nilEvery int
		allow                  allowKind
	}{
		{1, 10, 3, 0, allowNil},
		{3, 50, 5, 7, allowNil},
		{17, 200, 10, 5, allowDense},
		{33, 300, 20, 0, allowSparse},
		{64, 1000, 10, 0, allowNil},
		{100, 777, 15, 11, allowDense},
		{256, 3000, 10, 0, allowNil},
		{256, 3000, 10, 13, allowAll},
		{256, 3000, 10, 0, allowDense},
		{256, 3000, 50, 3, allowSparse},
		{256, 3000, 10, 0, allowPrefix},
		{256, 3000, 10, 0, allowLong},
		{256, 3000, 10, 0, allowEmpty},
		{256, 3000, 5000, 4, allowNil}, // k > rows
		{384, 2000, 10, 0, allowDense},
		{768, 500, 100, 0, allowNil},
	}
	for _, tc := range tests {
		name := fmt.Sprintf("dim%d_rows%d_k%d_nil%d_allow%d", tc.dim, tc.rows, tc.k, tc.nilEvery, tc.allow)
		t.Run(name, func(t *testing.T) {
			d := makeData(t, rng, tc.dim, tc.rows, tc.nilEvery)
			allow := mkAllow(tc.allow, tc.rows)
			queries := [][]float32{randUnit(rng, tc.dim), randUnit(rng, tc.dim)}
			// A query equal to a stored vector, scaled (Search normalises).
			if v := d.floats[len(d.floats)/2]; v != nil {
				s := slices.Clone(v)
				for i := range s {
					s[i] *= 3
				}
				queries = append(queries, s)
			}
			withKernels(t, func(t *testing.T, dot kernel) {
				for _, query := range queries {
					hits := hitsOf(d.seg.search(dot, query, tc.k, allow))
					want := d.exactTopK(query, tc.k, allow)
					if !slices.Equal(hits, want) {
						t.Fatalf("Search differs from the exact integer reference:\n got %v\nwant %v", hits, want)
					}
					d.checkFloatReference(t, query, tc.k, allow, hits)
				}
			})
		})
	}
}

func TestSelfCheck(t *testing.T) {
	t.Logf("kernels: %v, searches run %s", Kernels(), Kernel())
	if err := SelfCheck(); err != nil {
		t.Fatal(err)
	}
	// A kernel that disagrees is caught.
	allKernels["broken"] = func(q *query, vecs []int8, rows []int, out []int32) {
		dotRowsGo(q, vecs, rows, out)
		out[len(rows)-1]++
	}
	defer delete(allKernels, "broken")
	if err := SelfCheck(); err == nil {
		t.Fatal("a kernel off by one passed the self-check")
	}
}
