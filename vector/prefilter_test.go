package vector

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/bits-and-blooms/bitset"
)

// setPrefilter sets the prefilter's settings for the rest of the test:
// depth rows kept, whatever the hits asked for.
func setPrefilter(t *testing.T, minRows, depth int) {
	oldMin, oldDepth, oldPer := prefilterMin, prefilterDepth, prefilterPerHit
	prefilterMin, prefilterDepth, prefilterPerHit = minRows, depth, 0
	t.Cleanup(func() { prefilterMin, prefilterDepth, prefilterPerHit = oldMin, oldDepth, oldPer })
}

// naiveSigns returns row's sign bits, one bool a value.
func naiveSigns(row []int8) []bool {
	s := make([]bool, len(row))
	for i, x := range row {
		s[i] = x < 0
	}
	return s
}

// prefilteredTopK is the reference of a prefiltered search: for every
// eligible row, the sum of the query's magnitudes (signMag) over the
// values whose sign differs from the quantised query's, the depth lowest
// kept (ties by lower row), scored as
// exactTopK scores and the best k returned.
func (d *testData) prefilteredTopK(query []float32, k, depth int, allow *bitset.BitSet) []Hit {
	q, ok := quantizeQuery(query)
	if !ok {
		return nil
	}
	qs := naiveSigns(q.q8)
	type near struct{ row, dist int }
	var all []near
	for _, i := range d.eligible(allow) {
		n := 0
		for j, neg := range naiveSigns(d.rows[i]) {
			if neg != qs[j] {
				n += signMag(q.q8[j])
			}
		}
		all = append(all, near{i, n})
	}
	slices.SortFunc(all, func(a, b near) int {
		if a.dist != b.dist {
			return a.dist - b.dist
		}
		return a.row - b.row
	})
	kept := &testData{dim: d.dim, rows: make([][]int8, len(d.rows)), scales: d.scales}
	for _, x := range all[:min(depth, len(all))] {
		kept.rows[x.row] = d.rows[x.row]
	}
	return kept.exactTopK(query, k, allow)
}

// TestSignKernels checks every sign kernel against each value's sign, for
// dimensions around the kernels' 32- and 64-value steps.
func TestSignKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, dim := range []int{1, 7, 8, 31, 32, 33, 63, 64, 65, 96, 100, 128, 255, 256, 384, 513} {
		const n = 19
		vecs := make([]int8, n*dim)
		for i := range vecs {
			switch rng.IntN(8) {
			case 0:
				vecs[i] = 0
			case 1:
				vecs[i] = -128
			case 2:
				vecs[i] = -1
			default:
				vecs[i] = int8(rng.IntN(256) - 128)
			}
		}
		words := sketchWords(dim)
		for name, sign := range allSignKernels {
			lo, hi := 2, n-1
			out := make([]uint64, (hi-lo)*words)
			sign(vecs, dim, lo, hi, out)
			for r := lo; r < hi; r++ {
				o := out[(r-lo)*words:][:words]
				want := 0
				for i, neg := range naiveSigns(vecs[r*dim:][:dim]) {
					if got := o[i/64]>>(i%64)&1 == 1; got != neg {
						t.Fatalf("kernel %s, dim %d, row %d, value %d: sign bit %v, want %v", name, dim, r, i, got, neg)
					}
					if neg {
						want++
					}
				}
				got := 0
				for _, w := range o {
					got += bits.OnesCount64(w)
				}
				if got != want {
					t.Fatalf("kernel %s, dim %d, row %d: %d bits set, want %d (bits past dim)", name, dim, r, got, want)
				}
			}
		}
	}
}

// TestPrefilterMatchesReference checks the prefiltered search with every
// dot kernel against the reference, over parts, filters and
// dimensions with and without the four-word path, and that it does
// differ from the exact scan: the kept rows are not every row.
func TestPrefilterMatchesReference(t *testing.T) {
	setPrefilter(t, 0, 120)
	for _, dim := range []int{96, 256} {
		d := makeData(t, rand.New(rand.NewPCG(uint64(dim), 3)), dim, 2000, 7)
		s, _, _ := openParts(t, d)
		rng := rand.New(rand.NewPCG(9, uint64(dim)))
		every3, short := bitset.New(2000), bitset.New(1500)
		for i := uint(0); i < 2000; i += 3 {
			every3.Set(i)
		}
		for i := uint(0); i < 1500; i++ {
			short.Set(i)
		}
		queries := [][]float32{d.floats[5], d.floats[1999]}
		for range 6 {
			queries = append(queries, randUnit(rng, dim))
		}
		withKernels(t, func(t *testing.T, dot kernel) {
			differs := 0
			for _, allow := range []*bitset.BitSet{nil, every3, short} {
				for qi, query := range queries {
					for _, k := range []int{1, 10, 25} {
						got := hitsOf(s.searchDepth(dot, query, k, depthFor(k), allow))
						want := d.prefilteredTopK(query, k, depthFor(k), allow)
						if !slices.Equal(got, want) {
							t.Fatalf("dim %d, query %d, k %d: got %v, want %v", dim, qi, k, got, want)
						}
						if !slices.Equal(got, d.exactTopK(query, k, allow)) {
							differs++
						}
					}
				}
			}
			if differs == 0 {
				t.Fatalf("dim %d: every prefiltered answer equals the exact scan's", dim)
			}
		})
	}
}

// TestPrefilterSmallSegmentsExact checks that a segment with fewer
// candidate rows than prefilterMin answers as the exact scan does.
func TestPrefilterSmallSegmentsExact(t *testing.T) {
	setPrefilter(t, 1500, 120)
	d := makeData(t, rand.New(rand.NewPCG(4, 4)), 64, 2000, 0)
	few := bitset.New(2000)
	for i := uint(0); i < 2000; i += 2 {
		few.Set(i)
	}
	for i := range 20 {
		q := d.floats[i*97]
		if got, want := hitsOf(d.seg.Search(q, 10, few)), d.exactTopK(q, 10, few); !slices.Equal(got, want) {
			t.Fatalf("1,000 candidates: got %v, want the exact %v", got, want)
		}
	}
	differs := false
	for i := range 20 {
		q := d.floats[i*97]
		got := hitsOf(d.seg.Search(q, 10, nil))
		differs = differs || !slices.Equal(got, d.exactTopK(q, 10, nil))
		if want := d.prefilteredTopK(q, 10, depthFor(10), nil); !slices.Equal(got, want) {
			t.Fatalf("2,000 candidates, search %d after the first: got %v, want the prefilter's %v", i+2, got, want)
		}
	}
	if !differs {
		t.Fatal("2,000 candidates: every answer exact; want the prefilter's")
	}
}

// TestFirstSearchPrefiltered checks that a large segment's first Search
// is prefiltered, from the sketch the parts store, and makes the sketch
// it keeps.
func TestFirstSearchPrefiltered(t *testing.T) {
	setPrefilter(t, 0, 40)
	d := makeData(t, rand.New(rand.NewPCG(6, 6)), 64, 3000, 0)
	s, _, _ := openParts(t, d)
	q := randUnit(rand.New(rand.NewPCG(1, 9)), 64)
	want := d.prefilteredTopK(q, 25, depthFor(25), nil)
	if slices.Equal(want, d.exactTopK(q, 25, nil)) {
		t.Fatal("the prefilter's answer is the exact one: the test cannot tell them apart")
	}
	if got := hitsOf(s.Search(q, 25, nil)); !slices.Equal(got, want) || s.parts[0].cell.sk == nil {
		t.Fatalf("first search: got %v, want the prefilter's %v (sketch made: %v)", got, want, s.parts[0].cell.sk != nil)
	}
}

// TestStoredSignsMatchKernels checks that every part's sketch is the sign
// block the part stores, read where it is mapped, and holds what each
// sign kernel computes from its mapped vectors, for parts whose sign
// block lies at 8-byte aligned addresses and at others, and for
// dimensions with and without a partial last word.
func TestStoredSignsMatchKernels(t *testing.T) {
	for _, dim := range []int{8, 100, 256} {
		d := makeData(t, rand.New(rand.NewPCG(uint64(dim), 11)), dim, 700, 9)
		s, _, _ := openParts(t, d)
		aligned := map[bool]int{}
		for i := range s.parts {
			p := &s.parts[i]
			sk, err := p.sketchOf()
			if err != nil {
				t.Fatal(err)
			}
			if &sk.bits[0] != &p.signs[0] {
				t.Fatalf("dim %d, part %d: the sketch is not the mapped sign block", dim, i)
			}
			al := uintptr(unsafe.Pointer(&sk.bits[0]))%8 == 0
			aligned[al]++
			for name, sign := range allSignKernels {
				want := make([]uint64, p.rows*sk.words)
				sign(p.vecs, p.dim, 0, p.rows, want)
				if !bytes.Equal(sk.bits, wordsLE(want)) {
					t.Fatalf("dim %d, part %d (aligned %v): stored sign bits differ from kernel %s's", dim, i, al, name)
				}
			}
		}
		if aligned[true] == 0 || aligned[false] == 0 {
			t.Fatalf("dim %d: parts with aligned sign bits %d, unaligned %d; want both", dim, aligned[true], aligned[false])
		}
	}
}

// TestDamagedSignsDetected checks that a flipped byte in a part's sign
// block fails the part's checksum (which a store checks once per version
// of its log before a query maps the part) and SelectRows, so damaged
// sign bits are never searched or copied on.
func TestDamagedSignsDetected(t *testing.T) {
	d := makeData(t, rand.New(rand.NewPCG(3, 12)), 64, 100, 0)
	parts, err := encodeParts(d.dim, 128, d.rows, d.scales, 0)
	if err != nil {
		t.Fatal(err)
	}
	b := parts[0]
	l := layout(d.dim, 100)
	b[l.signOff+8*37] ^= 0x10
	path := filepath.Join(t.TempDir(), "part")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	s := openSegment(t, path)
	if err := s.VerifyPart(0); err == nil || !strings.Contains(err.Error(), "checksum mismatch") {
		t.Fatalf("VerifyPart of a damaged sign block = %v, want a checksum mismatch", err)
	}
	if _, err := SelectRows(b, []int{1, 2}, 0); err == nil {
		t.Fatal("SelectRows copied a part with a damaged sign block")
	}
}

// TestPrefilterSketchShared checks that segments mapping the same part
// share its sketch, made once.
func TestPrefilterSketchShared(t *testing.T) {
	setPrefilter(t, 0, 50)
	d := makeData(t, rand.New(rand.NewPCG(2, 2)), 32, 500, 0)
	s1, _, regions := openParts(t, d)
	s2, err := OpenRegions(regions)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if _, err := s1.SearchDepth(d.floats[3], 5, 50, nil); err != nil {
		t.Fatal(err)
	}
	for i := range s2.parts {
		if s2.parts[i].cell != s1.parts[i].cell || s2.parts[i].cell.sk == nil {
			t.Fatalf("part %d: sketch not shared or not built", i)
		}
	}
	sk := s2.parts[0].cell.sk
	if _, err := s2.SearchDepth(d.floats[3], 5, 50, nil); err != nil || s2.parts[0].cell.sk != sk {
		t.Fatalf("second search built the sketch again (err %v)", err)
	}
	if n := bits.OnesCount64(binary.LittleEndian.Uint64(sk.bits)); n == 0 {
		t.Fatal("row 0's sketch is empty")
	}
}

// TestPrefilterTruncatedUnderTheMapping checks that a prefiltered search
// of rows whose file was truncated returns ErrFault, whether it makes
// the sketches or has them already.
func TestPrefilterTruncatedUnderTheMapping(t *testing.T) {
	setPrefilter(t, 0, 50)
	for _, built := range []bool{false, true} {
		d := makeData(t, rand.New(rand.NewPCG(5, 1)), 8, 300, 0)
		s, path, _ := openParts(t, d)
		if built {
			if _, err := s.SearchDepth(d.floats[10], 1, 50, nil); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Truncate(path, 0); err != nil {
			t.Fatal(err)
		}
		if hits, err := s.SearchDepth(d.floats[10], 1, 50, nil); !errors.Is(err, ErrFault) || hits != nil {
			t.Fatalf("sketches built %v: Search after truncation = %v, %v; want ErrFault", built, hits, err)
		}
	}
}

// TestSignMag checks the query magnitudes that weigh sign bits: 0 for 0,
// the top for ±queryMax, symmetric and never falling as |x| grows.
func TestSignMag(t *testing.T) {
	if signMag(0) != 0 || signMag(queryMax) != 1<<magBits-1 || signMag(-queryMax) != 1<<magBits-1 {
		t.Fatalf("signMag(0, ±%d) = %d, %d, %d", queryMax, signMag(0), signMag(queryMax), signMag(-queryMax))
	}
	for x := int8(1); x <= queryMax; x++ {
		if signMag(x) != signMag(-x) || signMag(x) < signMag(x-1) {
			t.Fatalf("signMag(%d) = %d, signMag(%d) = %d, signMag(%d) = %d", x, signMag(x), -x, signMag(-x), x-1, signMag(x-1))
		}
	}
}

// TestDistKernels checks every distance kernel against
// querySketch.distance, for odd and even row counts.
func TestDistKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 30))
	for trial := range 20 {
		q, ok := quantizeQuery(randUnit(rng, 256))
		if !ok {
			t.Fatal("query did not quantise")
		}
		qs := sketchQuery(q)
		n := 1 + trial*3
		b := make([]byte, 32*n+1)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		b = b[1:] // rows at addresses that are not 8-byte aligned
		for name, dist := range allDistKernels {
			d := make([]uint16, n)
			dist(qs, b, d)
			for i := range d {
				if want := qs.distance(b[i*32:]); int(d[i]) != want {
					t.Fatalf("kernel %s, %d rows, row %d: %d, want %d", name, n, i, d[i], want)
				}
			}
		}
	}
}

// TestPrefilterDenseBlocks checks the prefiltered search with every
// distance kernel taking every block with a candidate, against the
// reference, with and without a filter.
func TestPrefilterDenseBlocks(t *testing.T) {
	setPrefilter(t, 0, 150)
	d := makeData(t, rand.New(rand.NewPCG(8, 8)), 256, 1500, 5)
	s, _, _ := openParts(t, d)
	every3 := bitset.New(1500)
	for i := uint(0); i < 1500; i += 3 {
		every3.Set(i)
	}
	oldDist, oldFrom := distBlock, denseFrom
	defer func() { distBlock, denseFrom = oldDist, oldFrom }()
	rng := rand.New(rand.NewPCG(8, 9))
	for name, dist := range allDistKernels {
		distBlock, denseFrom = dist, 1
		for range 5 {
			q := randUnit(rng, 256)
			for _, allow := range []*bitset.BitSet{nil, every3} {
				got := hitsOf(s.searchDepth(dotRows, q, 20, 150, allow))
				if want := d.prefilteredTopK(q, 20, 150, allow); !slices.Equal(got, want) {
					t.Fatalf("kernel %s: got %v, want %v", name, got, want)
				}
			}
		}
	}
}

// wordsLE returns words as little-endian bytes, as a part stores them.
func wordsLE(w []uint64) []byte {
	b := make([]byte, 0, 8*len(w))
	for _, x := range w {
		b = binary.LittleEndian.AppendUint64(b, x)
	}
	return b
}
