package chunk

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// goSources reads GOROOT/src/net/http/*.go: real code of a realistic mix.
func goSources(b *testing.B) (names []string, srcs [][]byte, total int64) {
	b.Helper()
	dir := filepath.Join(runtime.GOROOT(), "src", "net", "http")
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(paths) == 0 {
		b.Skipf("no Go sources in %s", dir)
	}
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		names = append(names, filepath.Base(p))
		srcs = append(srcs, src)
		total += int64(len(src))
	}
	return names, srcs, total
}

func BenchmarkSplit(b *testing.B) {
	names, srcs, total := goSources(b)
	b.SetBytes(total)
	b.ReportAllocs()
	chunks := 0
	for b.Loop() {
		for i, src := range srcs {
			chunks += len(Split(names[i], src).Chunks)
		}
	}
	b.ReportMetric(float64(chunks)/b.Elapsed().Seconds(), "chunks/s")
}

func BenchmarkSplitParallel(b *testing.B) {
	names, srcs, total := goSources(b)
	b.SetBytes(total)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			for i, src := range srcs {
				Split(names[i], src)
			}
		}
	})
}

func BenchmarkIndexText(b *testing.B) {
	names, srcs, total := goSources(b)
	files := make([]File, len(srcs))
	for i, src := range srcs {
		files[i] = Split(names[i], src)
	}
	b.SetBytes(total)
	for b.Loop() {
		for i, f := range files {
			for j := range f.Chunks {
				_ = IndexText(srcs[i], f, j)
			}
		}
	}
	_ = strings.Builder{}
}
