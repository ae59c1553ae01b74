package vector

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/bits-and-blooms/bitset"
)

func TestSearchSelf(t *testing.T) {
	// A stored vector is its own best match with a cosine close to 1.
	rng := rand.New(rand.NewPCG(9, 10))
	d := makeData(t, rng, 256, 2000, 0)
	for _, row := range []int{0, 1, 999, 1999} {
		hits := hitsOf(d.seg.Search(d.floats[row], 1, nil))
		if len(hits) != 1 || hits[0].Row != row || math.Abs(float64(hits[0].Score)-1) > 0.01 {
			t.Fatalf("Search(row %d) = %v", row, hits)
		}
	}
}

// TestSearchShardingIndependent checks that results do not depend on how
// many workers share the scan: 70,000 rows of 64 dimensions are five 1 MB
// runs, more than some worker counts below and fewer than others. The
// exact scan is checked against the reference, and so is the prefiltered
// search, here of any number of rows.
func TestSearchShardingIndependent(t *testing.T) {
	const n = 70000
	rng := rand.New(rand.NewPCG(11, 12))
	d := makeData(t, rng, 64, n, 9)
	query := randUnit(rng, 64)
	allow := bitset.New(n)
	for i := uint(0); i < n; i += 3 {
		allow.Set(i)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	setPrefilter(t, 0, 1000)
	for _, depth := range []int{0, 1000} {
		var first [2][]Hit
		for _, procs := range []int{1, 2, 3, 7, 16} {
			runtime.GOMAXPROCS(procs)
			for i, a := range []*bitset.BitSet{nil, allow} {
				hits := hitsOf(d.seg.searchDepth(dotRows, query, 25, depth, a))
				if first[i] == nil {
					first[i] = hits
					want := d.exactTopK(query, 25, a)
					if depth > 0 {
						want = d.prefilteredTopK(query, 25, depth, a)
					}
					if !slices.Equal(hits, want) {
						t.Fatalf("depth %d, GOMAXPROCS %d: got %v, want %v", depth, procs, hits, want)
					}
				} else if !slices.Equal(hits, first[i]) {
					t.Fatalf("depth %d, GOMAXPROCS %d: got %v, want %v", depth, procs, hits, first[i])
				}
			}
		}
	}
}

func TestSearchEdgeCases(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	d := makeData(t, rng, 16, 40, 2) // every other row has no vector
	query := randUnit(rng, 16)
	nonNil := d.eligible(nil)
	onlyNil := bitset.New(40)
	for i := uint(1); i < 40; i += 2 {
		onlyNil.Set(i)
	}
	neg := slices.Clone(query)
	for i := range neg {
		neg[i] = -neg[i]
	}
	tests := []struct {
		name  string
		query []float32
		k     int
		allow *bitset.BitSet
		want  int // number of hits
	}{
		{"k=0", query, 0, nil, 0},
		{"k<0", query, -1, nil, 0},
		{"k=1", query, 1, nil, 1},
		{"k>rows", query, 1000, nil, len(nonNil)},
		{"negated query", neg, 1000, nil, len(nonNil)},
		{"only nil rows allowed", query, 10, onlyNil, 0},
		{"empty allow", query, 10, bitset.New(0), 0},
		{"wrong dim", query[:15], 10, nil, 0},
		{"zero query", make([]float32, 16), 10, nil, 0},
		{"nan query", append([]float32{float32(math.NaN())}, query[1:]...), 10, nil, 0},
		{"inf query", append([]float32{float32(math.Inf(-1))}, query[1:]...), 10, nil, 0},
		{"huge query", append([]float32{3e38}, query[1:]...), 10, nil, 10},
		{"tiny query", []float32{1e-38, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 10, nil, 10},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			withKernels(t, func(t *testing.T, dot kernel) {
				hits := hitsOf(d.seg.search(dot, tc.query, tc.k, tc.allow))
				if len(hits) != tc.want {
					t.Fatalf("%d hits, want %d: %v", len(hits), tc.want, hits)
				}
				if tc.want == 0 && hits != nil {
					t.Fatalf("want nil, got %#v", hits)
				}
				for _, h := range hits {
					if d.rows[h.Row] == nil {
						t.Fatalf("row %d has no vector but matched", h.Row)
					}
				}
				if tc.want > 0 {
					if want := d.exactTopK(tc.query, tc.k, tc.allow); !slices.Equal(hits, want) {
						t.Fatalf("got %v, want %v", hits, want)
					}
				}
			})
		})
	}
	var nilSeg *Segment
	if hits := hitsOf(nilSeg.Search(query, 1, nil)); hits != nil {
		t.Fatalf("nil segment: %v", hits)
	}
}

func TestSearchConcurrent(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	d := makeData(t, rng, 32, 5000, 0)
	query := randUnit(rng, 32)
	want := hitsOf(d.seg.Search(query, 10, nil))
	done := make(chan []Hit)
	for range 8 {
		go func() { done <- hitsOf(d.seg.Search(query, 10, nil)) }()
	}
	for range 8 {
		if got := <-done; !slices.Equal(got, want) {
			t.Fatalf("concurrent Search: %v, want %v", got, want)
		}
	}
}
