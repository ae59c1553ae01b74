package chunk

import (
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/chunk/vocab"
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
				_ = vocab.IndexText(srcs[i], f, j)
			}
		}
	}
	_ = strings.Builder{}
}

// BenchmarkSplitLanguages measures parse+chunk throughput per language on
// the real code of realCorpus (fixtures for languages absent offline) and
// reports the share of files that fell back to windows.
// BCINDEX_REAL_PER_LANG=200 gives a larger sample.
func BenchmarkSplitLanguages(b *testing.B) {
	byLang := map[string][]realFile{}
	for _, rf := range realCorpus(b) {
		byLang[rf.lang] = append(byLang[rf.lang], rf)
	}
	for _, name := range fixtures(b) {
		src, _ := os.ReadFile(filepath.Join("testdata", name))
		lang := vocab.DetectLanguage(name, src)
		if len(byLang[lang]) == 0 || byLang[lang][0].path[:8] == "testdata" {
			byLang[lang] = append(byLang[lang], realFile{filepath.Join("testdata", name), lang, src})
		}
	}
	var langs []string
	for l := range byLang {
		if grammarFor(l) != nil || l == "markdown" || l == "json" || l == "yaml" || l == "toml" || l == "text" {
			langs = append(langs, l)
		}
	}
	sort.Strings(langs)
	for _, l := range langs {
		files := byLang[l]
		b.Run(l, func(b *testing.B) {
			var total int64
			fallback := 0
			for _, rf := range files {
				total += int64(len(rf.src))
				if Split(rf.path, rf.src).Fallback {
					fallback++
				}
			}
			b.SetBytes(total)
			for b.Loop() {
				for _, rf := range files {
					Split(rf.path, rf.src)
				}
			}
			b.ReportMetric(float64(len(files)), "files")
			b.ReportMetric(100*float64(fallback)/float64(len(files)), "fallback%")
		})
	}
}

// BenchmarkEdit chunks each file of net/http with a function appended, from
// its previous version, as a branch run does for an edited file.
func BenchmarkEdit(b *testing.B) {
	names, srcs, total := goSources(b)
	prevs := make([]File, len(srcs))
	nexts := make([][]byte, len(srcs))
	for i, src := range srcs {
		prevs[i] = Split(names[i], src)
		nexts[i] = append(append([]byte(nil), src...), "\nfunc appended() int { return 1 }\n"...)
	}
	b.SetBytes(total)
	b.ReportAllocs()
	fast := 0
	for b.Loop() {
		fast = 0
		for i := range srcs {
			if _, ok := Edit(names[i], nexts[i], srcs[i], prevs[i]); ok {
				fast++
			}
		}
	}
	b.ReportMetric(float64(fast), "edited")
}
