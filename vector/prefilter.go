package vector

import (
	"encoding/binary"
	"math/bits"
	"runtime/debug"
	"sync"
)

// A search of a large segment reads each candidate row's sketch (sign
// bits, sketch.go) instead of its vector, keeps the depth rows whose
// sketches are nearest the query's (the query's magnitudes, in four bits,
// summed over the values whose sign differs: the sign-bit estimate of the
// dot product), and scores only those exactly, as the full scan scores
// every row. The sketches are an eighth of the vectors' bytes, and the
// exact scores of depth rows a few hundred kilobytes of reads. Its top k
// are the exact top k whenever every one of them is among the depth kept
// (doc/performance.md, "The vector arm's sign-bit pre-filter", measures
// how often on a million chunks).
//
// A segment whose candidate rows number fewer than prefilterMin is scanned
// exactly, as before: its scan is fast already, and the stores the
// quality suites search answer as they did.
var (
	prefilterMin    = 1 << 16 // candidate rows below which the scan is exact
	prefilterDepth  = 2000    // rows a segment keeps for exact scores, at least
	prefilterPerHit = 50      // and rows it keeps per hit asked for
)

// depthFor returns how many rows a prefiltered search for k hits keeps:
// prefilterDepth, or 50k if more (10,000 for the 200 the vector arm asks).
func depthFor(k int) int { return max(prefilterDepth, prefilterPerHit*k) }

// Depth returns how many rows of a large segment Search scores exactly
// for k hits (SearchDepth's depth).
func Depth(k int) int { return depthFor(k) }

// noDist marks a row that is not a candidate in a distance table.
const noDist = 0xffff

// prefilters reports whether the search keeps depth rows by their sketches
// instead of scoring every row: depth is positive, the dimension's
// distances fit a distance table, and the candidates number at least
// prefilterMin and more than twice depth.
func (sc *scan) prefilters(depth int) bool {
	if depth <= 0 || maxDist(len(sc.q.q8)) >= noDist {
		return false
	}
	n := sc.limit
	if sc.filtered {
		n = 0
		for i, w := range sc.allow[:min(len(sc.allow), (sc.limit+63)/64)] {
			if end := (i + 1) * 64; end > sc.limit {
				w &= 1<<(uint(sc.limit)&63) - 1
			}
			n += bits.OnesCount64(w)
		}
	}
	return n >= prefilterMin && n > 2*depth
}

// dists holds distance tables between searches.
var dists sync.Pool

// searchSketched is the prefiltered search: sketches of the parts not
// read yet are made from their sign blocks, the candidates' distances counted into a table
// and a histogram, the depth nearest kept (ties by lower row) and scored.
func (s *Segment) searchSketched(sc *scan, depth int) ([]Hit, error) {
	parts := s.parts
	limitBlocks := (sc.limit + 63) / 64
	if err := parallel(workersFor(len(parts)), len(parts), func(_ int, next func() (int, bool)) error {
		for i, ok := next(); ok; i, ok = next() {
			if parts[i].base < sc.limit {
				if _, err := parts[i].sketchOf(); err != nil {
					return err
				}
			}
		}
		return nil
	}); err != nil {
		return nil, err
	}

	qs := sketchQuery(sc.q)
	n := limitBlocks * 64
	var dist []uint16
	if p, _ := dists.Get().(*[]uint16); p != nil && cap(*p) >= n {
		dist = (*p)[:n]
	} else {
		dist = make([]uint16, n)
	}
	defer func() { dists.Put(&dist) }()
	runs := s.spans(sc.limit, max(1, minRunBytes/(64*8*len(qs.signs))))
	workers := workersFor(len(runs))
	hists := make([][]int, workers)
	if err := parallel(workers, len(runs), func(w int, next func() (int, bool)) error {
		h := make([]int, maxDist(s.dim)+1)
		hists[w] = h
		for r, ok := next(); ok; r, ok = next() {
			sc.distances(runs[r], qs, dist, h)
		}
		return nil
	}); err != nil {
		return nil, err
	}

	// The depth nearest: every row nearer than cut, and the first rows at
	// cut (by row) up to depth in all.
	cut, atCut := len(hists[0])-1, depth
	for d := range hists[0] {
		c := 0
		for _, h := range hists {
			c += h[d]
		}
		if c >= atCut {
			cut = d
			break
		}
		atCut -= c
	}
	rows := make([]int, 0, depth)
	for r, d := range dist {
		if int(d) < cut || int(d) == cut && atCut > 0 {
			if int(d) == cut {
				atCut--
			}
			rows = append(rows, r)
		}
	}
	top := newTopK(min(sc.k, len(rows)))
	var err error
	func() {
		defer guardFault(debug.SetPanicOnFault(true), &err)
		sc.score(s, rows, top)
	}()
	if err != nil {
		return nil, err
	}
	return top.sorted(sc.k), nil
}

// distances sets dist[r] to the distance between row r's sketch and the
// query's (querySketch.distance) for every candidate row r of the span's
// blocks (noDist for the other rows), and counts each distance in hist.
func (sc *scan) distances(sp span, qs *querySketch, dist []uint16, hist []int) {
	p := sp.p
	sk := p.cell.sk
	words := len(qs.signs)
	for blk := sp.lo; blk < sp.hi; blk++ {
		base := blk * 64
		local := base - p.base // a multiple of 64: parts start on blocks
		d := dist[base : base+64 : base+64]
		m := sk.has[local/64]
		if sc.filtered {
			m = 0
			if blk < len(sc.allow) {
				m = sc.allow[blk] & sk.has[local/64]
			}
		}
		if n := sc.limit - base; n < 64 {
			m &= 1<<n - 1
		}
		n := min(64, p.rows-local)
		for i := n; i < 64; i++ {
			d[i] = noDist
		}
		if words == 4 && bits.OnesCount64(m) >= denseFrom {
			// 256 dimensions, the built-in model's: every row of the
			// block, without branches; a row that is no candidate gets
			// noDist and no count.
			distBlock(qs, sk.bits[local*32:(local+n)*32], d[:n])
			for i := range n {
				in := int(m >> uint(i) & 1)
				hist[d[i]] += in
				d[i] |= uint16(in - 1)
			}
			continue
		}
		for i := range n {
			d[i] = noDist
		}
		for ; m != 0; m &= m - 1 {
			i := bits.TrailingZeros64(m)
			var x int
			if r := (local + i) * words * 8; words == 4 {
				x = dist4(qs, sk.bits[r:r+32:r+32])
			} else {
				x = qs.distance(sk.bits[r : r+8*words])
			}
			d[i] = uint16(x)
			hist[x]++
		}
	}
}

// A distKernel sets d[i] to the distance (querySketch.distance) of the
// i-th four-word row of b (32 bytes, its words little-endian), for every
// i < len(d); every kernel sets the same numbers.
type distKernel func(qs *querySketch, b []byte, d []uint16)

// distBlock is the distance kernel of dense blocks, chosen with dotRows
// (kernel_simd_amd64.go; the AVX-512 one needs VPOPCNTQ), and denseFrom
// the candidates of 64 rows from which a block takes it;
// allDistKernels holds every one this build and CPU can run, for the
// tests.
var (
	distBlock      distKernel = distBlockGo
	denseFrom                 = 48
	allDistKernels            = map[string]distKernel{"go": distBlockGo}
)

// distBlockGo is the portable distance kernel.
func distBlockGo(qs *querySketch, b []byte, d []uint16) {
	b = b[:32*len(d)]
	for i := range d {
		d[i] = uint16(dist4(qs, b[i*32:i*32+32:i*32+32]))
	}
}

// dist4 is qs.distance of a four-word row, unrolled.
func dist4(qs *querySketch, o []byte) int {
	s, p0, p1, p2, p3 := qs.signs[:4:4], qs.planes[0][:4:4], qs.planes[1][:4:4], qs.planes[2][:4:4], qs.planes[3][:4:4]
	o = o[:32:32]
	le := binary.LittleEndian
	x0, x1, x2, x3 := le.Uint64(o[0:])^s[0], le.Uint64(o[8:])^s[1], le.Uint64(o[16:])^s[2], le.Uint64(o[24:])^s[3]
	c0 := bits.OnesCount64(x0&p0[0]) + bits.OnesCount64(x1&p0[1]) + bits.OnesCount64(x2&p0[2]) + bits.OnesCount64(x3&p0[3])
	c1 := bits.OnesCount64(x0&p1[0]) + bits.OnesCount64(x1&p1[1]) + bits.OnesCount64(x2&p1[2]) + bits.OnesCount64(x3&p1[3])
	c2 := bits.OnesCount64(x0&p2[0]) + bits.OnesCount64(x1&p2[1]) + bits.OnesCount64(x2&p2[2]) + bits.OnesCount64(x3&p2[3])
	c3 := bits.OnesCount64(x0&p3[0]) + bits.OnesCount64(x1&p3[1]) + bits.OnesCount64(x2&p3[2]) + bits.OnesCount64(x3&p3[3])
	return c0 + 2*c1 + 4*c2 + 8*c3
}

// score scores rows (segment rows, ascending, each a candidate) exactly, as
// run does, into top: a kernel call per 64 rows of one part.
func (sc *scan) score(s *Segment, rows []int, top *topK) {
	var (
		local [64]int
		dots  [64]int32
	)
	pi := 0
	for len(rows) > 0 {
		for s.parts[pi].base+s.parts[pi].rows <= rows[0] {
			pi++
		}
		p := &s.parts[pi]
		n := 0
		for n < len(rows) && n < 64 && rows[n] < p.base+p.rows {
			local[n] = rows[n] - p.base
			n++
		}
		sc.dot(sc.q, p.vecs, local[:n], dots[:n])
		for j := range n {
			score := float32(dots[j]) * sc.q.factor * p.scales[local[j]]
			if len(top.h) == top.k && score < top.h[0].Score {
				continue
			}
			top.push(Hit{Row: rows[j], Score: score})
		}
		rows = rows[n:]
	}
}
