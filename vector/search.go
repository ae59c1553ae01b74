package vector

import (
	"math"
	"math/bits"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"github.com/bits-and-blooms/bitset"
)

// Hit is one search result: a row number and its score.
type Hit struct {
	Row   int
	Score float32
}

// query is a search vector quantised for the integer kernels.
type query struct {
	q8     []int8  // used by the SIMD kernels
	q32    []int32 // the same values, for the portable kernel
	bias   int32   // 128 × the sum of q8[:len&^31] (see kernel_simd_amd64.go)
	factor float32 // score = float32(dot) * factor * rowScale
}

// queryMax bounds the quantised query's values. The SIMD kernels multiply
// unsigned bytes (a stored value plus 128, at most 255) with these and add
// two products in 16 bits (VPMADDUBSW): 2 × 255 × 63 < 2^15, so the sums
// never saturate. The quality suite ranks as it did with 16-bit queries.
const queryMax = 63

// quantizeQuery normalises v to unit length and quantises it to integers of
// magnitude at most queryMax; since stored values are in [-128, 127], no
// dot product of up to 2^31 / (128 × 63) = 266,305 dimensions overflows
// int32. It reports false for a zero or non-finite vector.
func quantizeQuery(v []float32) (*query, bool) {
	var maxAbs, norm2 float64
	for _, x := range v {
		f := float64(x)
		a := math.Abs(f)
		if !(a <= math.MaxFloat32) {
			return nil, false
		}
		maxAbs = max(maxAbs, a)
		norm2 += f * f
	}
	if maxAbs == 0 || norm2 == 0 || len(v) > maxDim {
		return nil, false
	}
	const qmax = queryMax
	inv := qmax / maxAbs
	q := &query{q8: make([]int8, len(v)), q32: make([]int32, len(v))}
	for i, x := range v {
		r := min(max(math.Round(float64(x)*inv), -qmax), qmax)
		q.q8[i] = int8(r)
		q.q32[i] = int32(r)
	}
	q.setBias()
	q.factor = float32(maxAbs / qmax / math.Sqrt(norm2))
	if !(q.factor > 0 && q.factor <= math.MaxFloat32) {
		return nil, false
	}
	return q, true
}

// setBias computes bias from q8.
func (q *query) setBias() {
	var sum int32
	for _, x := range q.q8[:len(q.q8)&^31] {
		sum += int32(x)
	}
	q.bias = 128 * sum
}

// Search returns the k best rows (cosine with query, highest first) among rows
// set in allow (nil = all rows), parallel across cores. Exact on a segment
// of fewer than prefilterMin candidate rows; on a larger one, the best of
// the rows whose sign bits are nearest the query's (prefilter.go).
//
// The score of a row is the dot product of the unit-length query (quantised
// to integers of at most queryMax) with the stored int8 row times its scale; for rows stored from
// unit-length vectors that is their cosine with the query, up to quantisation
// error. Equal scores are ordered by row number. Rows without vector (scale
// 0) and bits of allow beyond Len are ignored. Search returns nil if k <= 0,
// len(query) != Dim, the query is zero or not finite, or the segment is
// closed; it returns ErrFault, and no hits, when the mapped rows could not
// be read.
//
// A large segment is prefiltered from its first search on: its parts
// store the sign bits the pre-filter compares (sketch.go), so a process
// that searches once reads those and the kept rows instead of every
// vector.
func (s *Segment) Search(query []float32, k int, allow *bitset.BitSet) ([]Hit, error) {
	return s.SearchDepth(query, k, depthFor(k), allow)
}

// SearchDepth is Search that, on a segment large enough (prefilter.go),
// scores exactly only the depth rows whose sign bits are nearest the
// query's; depth 0 scores every row, as a small segment's Search does.
// Search's depth is the one its recall was measured with.
func (s *Segment) SearchDepth(query []float32, k, depth int, allow *bitset.BitSet) ([]Hit, error) {
	if s != nil && s.rowVec != nil {
		return s.searchMapped(dotRows, query, k, depth, allow)
	}
	return s.searchDepth(dotRows, query, k, depth, allow)
}

// search is Search with the kernel dot; the tests run every kernel the CPU
// has through it.
func (s *Segment) search(dot kernel, query []float32, k int, allow *bitset.BitSet) ([]Hit, error) {
	return s.searchDepth(dot, query, k, depthFor(k), allow)
}

// searchDepth is search that ranks a large segment's rows by their sketches
// and scores only the best depth of them exactly
// (prefilter.go); depth 0 scores every row.
func (s *Segment) searchDepth(dot kernel, query []float32, k, depth int, allow *bitset.BitSet) ([]Hit, error) {
	if s == nil || k <= 0 || len(query) != s.dim {
		return nil, nil
	}
	q, ok := quantizeQuery(query)
	if !ok {
		return nil, nil
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.parts == nil || s.rows == 0 {
		return nil, nil
	}
	sc := scan{q: q, dot: dot, k: k, limit: s.rows}
	if allow != nil {
		sc.filtered = true
		sc.allow = allow.Words()
		sc.limit = int(min(allow.Len(), uint(s.rows)))
		if sc.limit == 0 {
			return nil, nil
		}
	}
	if sc.prefilters(depth) {
		return s.searchSketched(&sc, depth)
	}

	// Workers take runs of whole 64-row blocks (one allow word each) from a
	// shared counter until none are left, so a core that another process
	// slows down does less of the scan instead of holding up the result.
	// Runs are at least minRunBytes of vectors, so handing them out costs
	// next to nothing, and there are few enough workers that goroutine
	// start-up stays negligible. A run never leaves its part.
	runs := s.spans(sc.limit, max(1, minRunBytes/(64*s.dim)))
	workers := workersFor(len(runs))
	results := make([]*topK, workers)
	err := parallel(workers, len(runs), func(w int, next func() (int, bool)) error {
		top := newTopK(min(k, sc.limit))
		results[w] = top
		for r, ok := next(); ok; r, ok = next() {
			sc.run(top, runs[r])
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	all := results[0]
	for _, r := range results[1:] {
		all.h = append(all.h, r.h...)
	}
	return all.sorted(k), nil
}

// minRunBytes is the least a worker takes from the shared counter at once.
const minRunBytes = 1 << 20

// spans returns the segment's 64-row blocks below row limit in runs of at
// most runBlocks, none of which leaves its part.
func (s *Segment) spans(limit, runBlocks int) []span {
	limitBlocks := (limit + 63) / 64
	var runs []span
	for i := range s.parts {
		p := &s.parts[i]
		lo, hi := p.base/64, min(limitBlocks, (p.base+p.rows+63)/64)
		for b := lo; b < hi; b += runBlocks {
			runs = append(runs, span{p, b, min(hi, b+runBlocks)})
		}
	}
	return runs
}

// workersFor is how many goroutines share n tasks: GOMAXPROCS, at most n.
func workersFor(n int) int { return max(1, min(runtime.GOMAXPROCS(0), n)) }

// parallel runs work on workers goroutines, numbered from 0, each taking
// task numbers below n from a shared counter through next until none are
// left, and returns the first error: ErrFault for a fault in mapped
// memory.
func parallel(workers, n int, work func(w int, next func() (int, bool)) error) error {
	var counter atomic.Int64
	next := func() (int, bool) {
		i := int(counter.Add(1)) - 1
		return i, i < n
	}
	errs := make([]error, workers)
	one := func(w int) {
		defer guardFault(debug.SetPanicOnFault(true), &errs[w])
		errs[w] = work(w, next)
	}
	if workers == 1 {
		one(0)
	} else {
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() { one(w) })
		}
		wg.Wait()
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// span is a run of 64-row blocks [lo, hi) of the segment, all in part p.
type span struct {
	p      *part
	lo, hi int
}

// scan holds what every shard of one search shares.
type scan struct {
	q        *query
	dot      kernel
	k        int
	filtered bool     // allow applies; otherwise every row is a candidate
	allow    []uint64 // the allow bitset's words
	limit    int      // rows at or past limit are never candidates
}

// run scores the rows of the span's 64-row blocks into top.
//
// Each block makes one kernel call. When at least a quarter of the span
// between a block's first and last candidate row are candidates, the kernel
// runs over the whole span, reading memory sequentially (the extra rows cost
// little: a sequential scan is bound by memory bandwidth, and a scattered
// one by memory latency); otherwise it gets just the candidate rows.
func (sc *scan) run(top *topK, sp span) {
	p := sp.p
	scales := p.scales
	factor := sc.q.factor
	var (
		rows [64]int
		dots [64]int32
	)
	for blk := sp.lo; blk < sp.hi; blk++ {
		base := blk * 64
		local := base - p.base // the block's first row in the part
		m := sc.blockMask(p, blk)
		if m == 0 {
			continue
		}
		first := bits.TrailingZeros64(m)
		span := 64 - bits.LeadingZeros64(m) - first
		var dotIdx [64]uint8 // dots index of block row i
		n := 0
		if 4*bits.OnesCount64(m) >= span {
			for j := range span {
				rows[j] = local + first + j
				dotIdx[first+j] = uint8(j)
			}
			n = span
		} else {
			for mm := m; mm != 0; mm &= mm - 1 {
				i := bits.TrailingZeros64(mm)
				rows[n] = local + i
				dotIdx[i] = uint8(n)
				n++
			}
		}
		sc.dot(sc.q, p.vecs, rows[:n], dots[:n])
		for ; m != 0; m &= m - 1 {
			i := bits.TrailingZeros64(m)
			score := float32(dots[dotIdx[i]]) * factor * scales[local+i]
			if len(top.h) == top.k && score < top.h[0].Score {
				continue // fast reject; push handles ties
			}
			top.push(Hit{Row: base + i, Score: score})
		}
	}
}

// blockMask returns the candidates of 64-row block blk of part p, a bit
// each: the rows allow allows, below limit and the part's end, that hold
// a vector.
func (sc *scan) blockMask(p *part, blk int) uint64 {
	base := blk * 64
	local := base - p.base
	m := ^uint64(0)
	if sc.filtered {
		m = 0
		if blk < len(sc.allow) {
			m = sc.allow[blk]
		}
	}
	if n := sc.limit - base; n < 64 {
		m &= 1<<n - 1
	}
	if n := p.rows - local; n < 64 {
		m &= 1<<n - 1
	}
	for mm := m; mm != 0; mm &= mm - 1 {
		if i := bits.TrailingZeros64(mm); !usableScale(p.scales[local+i]) {
			m &^= 1 << i
		}
	}
	return m
}

// usableScale reports whether a row with scale rs has a vector: rs is a
// positive finite number. It is 0 for rows added without vector; NaN, Inf or
// negative only in a corrupt file.
func usableScale(rs float32) bool { return rs > 0 && rs <= math.MaxFloat32 }
