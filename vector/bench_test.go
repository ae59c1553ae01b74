package vector

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/bits-and-blooms/bitset"
)

const benchDim = 256

var (
	benchDir  string
	benchSegs = map[int]*Segment{}
)

func TestMain(m *testing.M) {
	code := m.Run()
	for _, s := range benchSegs {
		s.Close()
	}
	if benchDir != "" {
		os.RemoveAll(benchDir)
	}
	os.Exit(code)
}

// benchSegment returns a cached segment of rows random 256-d rows.
func benchSegment(b *testing.B, rows int) *Segment {
	if s := benchSegs[rows]; s != nil {
		return s
	}
	if benchDir == "" {
		d, err := os.MkdirTemp("", "vector-bench")
		if err != nil {
			b.Fatal(err)
		}
		benchDir = d
	}
	// Parts of PartRows rows one after another in one file, as a store
	// lays out a large segment.
	path := filepath.Join(benchDir, fmt.Sprintf("seg-%d", rows))
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	rng := rand.New(rand.NewPCG(uint64(rows), 1))
	var regions []Region
	var off int64
	for lo, per := 0, PartRows(benchDim); lo < rows; lo += per {
		n := min(per, rows-lo)
		words := make([]uint64, n*benchDim/8)
		all := unsafe.Slice((*int8)(unsafe.Pointer(&words[0])), n*benchDim)
		q, scales := make([][]int8, n), make([]float32, n)
		for r := range q {
			for i := range words[r*benchDim/8 : (r+1)*benchDim/8] {
				words[r*benchDim/8+i] = rng.Uint64()
			}
			q[r] = all[r*benchDim : (r+1)*benchDim]
			for i, x := range q[r] {
				if x == -128 {
					q[r][i] = -127
				}
			}
			scales[r] = 0.5/127 + rng.Float32()/127
		}
		p, err := EncodeParts(benchDim, q, scales, 0)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := f.Write(p[0]); err != nil {
			b.Fatal(err)
		}
		regions = append(regions, Region{Path: path, Off: off, Len: int64(len(p[0]))})
		off += int64(len(p[0]))
	}
	s, err := OpenRegions(regions)
	if err != nil {
		b.Fatal(err)
	}
	benchSegs[rows] = s
	return s
}

// reportCPU adds a cpu-ms/op metric: process CPU time per iteration since
// start. Unlike ns/op it does not count time spent waiting for a core, so it
// is the steadier figure on a shared machine (it still includes GC and, for
// parallel searches, the work of every core).
func reportCPU(b *testing.B, start time.Duration) {
	if start > 0 && b.N > 0 {
		b.ReportMetric(float64(processCPU()-start)/1e6/float64(b.N), "cpu-ms/op")
	}
}

var benchSizes = []struct {
	name string
	rows int
}{{"100k", 100_000}, {"1M", 1_000_000}}

// BenchmarkSearch reports bytes scanned (int8 rows plus scales) per second;
// compare with BenchmarkMemRead at the same size and -cpu.
func BenchmarkSearch(b *testing.B) {
	names := make([]string, 0, len(allKernels))
	for name := range allKernels {
		names = append(names, name)
	}
	slices.Sort(names)
	rng := rand.New(rand.NewPCG(2, 3))
	query := randUnit(rng, benchDim)
	for _, size := range benchSizes {
		for _, name := range names {
			b.Run(fmt.Sprintf("rows=%s/kernel=%s", size.name, name), func(b *testing.B) {
				s, dot := benchSegment(b, size.rows), allKernels[name]
				b.SetBytes(int64(size.rows) * (benchDim + 4))
				var cpu0 time.Duration
				for b.Loop() {
					if cpu0 == 0 {
						cpu0 = processCPU()
					}
					if hits := hitsOf(s.searchDepth(dot, query, 10, 0, nil)); len(hits) != 10 {
						b.Fatalf("%d hits", len(hits))
					}
				}
				reportCPU(b, cpu0)
			})
		}
		// A filter keeping a random half of the rows, default kernel.
		b.Run(fmt.Sprintf("rows=%s/kernel=%s/allow=50%%", size.name, kernelName), func(b *testing.B) {
			s := benchSegment(b, size.rows)
			allow := bitset.New(uint(size.rows))
			for i := range size.rows {
				if rng.IntN(2) == 0 {
					allow.Set(uint(i))
				}
			}
			b.SetBytes(int64(size.rows) * (benchDim + 4))
			var cpu0 time.Duration
			for b.Loop() {
				if cpu0 == 0 {
					cpu0 = processCPU()
				}
				if hits := hitsOf(s.SearchDepth(query, 10, 0, allow)); len(hits) != 10 {
					b.Fatalf("%d hits", len(hits))
				}
			}
			reportCPU(b, cpu0)
		})
		// The prefiltered search, the default kernel scoring, the
		// sketches made once (before the timer, as a kept segment has
		// them).
		b.Run(fmt.Sprintf("rows=%s/prefilter", size.name), func(b *testing.B) {
			s := benchSegment(b, size.rows)
			for i := range s.parts {
				s.parts[i].cell.sk = nil
			}
			if hits := hitsOf(s.searchDepth(dotRows, query, 10, depthFor(10), nil)); len(hits) != 10 {
				b.Fatalf("%d hits", len(hits))
			}
			b.ResetTimer()
			var cpu0 time.Duration
			for b.Loop() {
				if cpu0 == 0 {
					cpu0 = processCPU()
				}
				if hits := hitsOf(s.searchDepth(dotRows, query, 10, depthFor(10), nil)); len(hits) != 10 {
					b.Fatalf("%d hits", len(hits))
				}
			}
			reportCPU(b, cpu0)
		})
	}
}

// BenchmarkSketch reports how fast each sign kernel computes a segment's
// sign bits (as EncodeParts writes them), in bytes of vectors read per
// second, and how long making the sketches from the stored bits takes.
func BenchmarkSketch(b *testing.B) {
	var names []string
	for name := range allSignKernels {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, size := range benchSizes {
		for _, name := range names {
			b.Run(fmt.Sprintf("rows=%s/kernel=%s", size.name, name), func(b *testing.B) {
				s, sign := benchSegment(b, size.rows), allSignKernels[name]
				b.SetBytes(int64(size.rows) * benchDim)
				for b.Loop() {
					for i := range s.parts {
						p := &s.parts[i]
						words := sketchWords(p.dim)
						out := make([]uint64, p.rows*words)
						for lo := 0; lo < p.rows; lo += 512 {
							hi := min(p.rows, lo+512)
							sign(p.vecs, p.dim, lo, hi, out[lo*words:hi*words])
						}
					}
				}
			})
		}
		b.Run(fmt.Sprintf("rows=%s/stored", size.name), func(b *testing.B) {
			s := benchSegment(b, size.rows)
			for b.Loop() {
				for i := range s.parts {
					s.parts[i].cell.sk = nil
					if _, err := s.parts[i].sketchOf(); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

var memSink uint64

// BenchmarkScanVsMem alternates one Search (default kernel) with one memory
// read of the same bytes and reports the fastest of each (min-ms) and their
// ratio: the fraction of memory bandwidth the scan reaches. Minimums of
// interleaved runs hold up on a shared, noisy machine where ns/op does not.
func BenchmarkScanVsMem(b *testing.B) {
	rng := rand.New(rand.NewPCG(4, 5))
	query := randUnit(rng, benchDim)
	for _, size := range benchSizes {
		b.Run(fmt.Sprintf("rows=%s/kernel=%s", size.name, kernelName), func(b *testing.B) {
			s := benchSegment(b, size.rows)
			words := segmentWords(s)
			shards := runtime.GOMAXPROCS(0)
			sums := make([]uint64, shards)
			minSearch, minMem := time.Duration(math.MaxInt64), time.Duration(math.MaxInt64)
			for b.Loop() {
				t0 := time.Now()
				if hits := hitsOf(s.SearchDepth(query, 10, 0, nil)); len(hits) != 10 {
					b.Fatalf("%d hits", len(hits))
				}
				t1 := time.Now()
				memSink += parallelSum(words, sums)
				t2 := time.Now()
				minSearch = min(minSearch, t1.Sub(t0))
				minMem = min(minMem, t2.Sub(t1))
			}
			b.ReportMetric(float64(minSearch)/1e6, "search-min-ms")
			b.ReportMetric(float64(minMem)/1e6, "mem-min-ms")
			b.ReportMetric(float64(minMem)/float64(minSearch), "mem/search")
		})
	}
}

// segmentWords returns the segment's body (vectors, padding, scales) as words.
func segmentWords(s *Segment) []uint64 {
	body := s.parts[0].body
	return unsafe.Slice((*uint64)(unsafe.Pointer(&body[0])), len(body)/8)
}

// parallelSum sums words split across len(sums) goroutines.
func parallelSum(words, sums []uint64) uint64 {
	var wg sync.WaitGroup
	for i := range sums {
		part := words[len(words)*i/len(sums) : len(words)*(i+1)/len(sums)]
		wg.Go(func() { sums[i] = sumWords(part) })
	}
	wg.Wait()
	var t uint64
	for _, x := range sums {
		t += x
	}
	return t
}

// BenchmarkMemRead sums the same bytes Search scans, split across GOMAXPROCS
// goroutines like Search: the memory-bandwidth ceiling for a scan.
func BenchmarkMemRead(b *testing.B) {
	for _, size := range benchSizes {
		b.Run("rows="+size.name, func(b *testing.B) {
			s := benchSegment(b, size.rows)
			words := segmentWords(s)
			b.SetBytes(int64(size.rows) * (benchDim + 4))
			sums := make([]uint64, runtime.GOMAXPROCS(0))
			var cpu0 time.Duration
			for b.Loop() {
				if cpu0 == 0 {
					cpu0 = processCPU()
				}
				memSink += parallelSum(words, sums)
			}
			reportCPU(b, cpu0)
		})
	}
}

func sumWords(w []uint64) uint64 {
	var s0, s1, s2, s3 uint64
	i := 0
	for ; i+4 <= len(w); i += 4 {
		x := w[i : i+4 : i+4]
		s0 += x[0]
		s1 += x[1]
		s2 += x[2]
		s3 += x[3]
	}
	for ; i < len(w); i++ {
		s0 += w[i]
	}
	return s0 + s1 + s2 + s3
}
