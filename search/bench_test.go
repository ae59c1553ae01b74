package search

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// benchCorpus commits real code nobody here wrote — the Go standard
// library's net and encoding packages from GOROOT — into a temp repository.
// BCINDEX_BENCH_SRC names another directory to use instead.
func benchCorpus(b *testing.B) (*gittest.Repo, int64) {
	b.Helper()
	srcs := []string{filepath.Join(runtime.GOROOT(), "src", "net"), filepath.Join(runtime.GOROOT(), "src", "encoding")}
	if s := os.Getenv("BCINDEX_BENCH_SRC"); s != "" {
		srcs = strings.Split(s, string(os.PathListSeparator))
	}
	r := gittest.New(b)
	var total int64
	for _, src := range srcs {
		err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !d.Type().IsRegular() {
				return err
			}
			rel, _ := filepath.Rel(filepath.Dir(src), p)
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			total += int64(len(data))
			r.Write(map[string]string{filepath.ToSlash(rel): string(data)})
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	r.Git("add", "-A")
	r.Git("commit", "-qm", "corpus")
	return r, total
}

// BenchmarkIndex measures a full index of the corpus with the built-in embedder.
func BenchmarkIndex(b *testing.B) {
	r, size := benchCorpus(b)
	b.SetBytes(size)
	b.ResetTimer()
	var sum *indexer.Summary
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		os.RemoveAll(filepath.Join(r.Dir, ".git", "bcindex"))
		repo, err := gitindex.OpenRepo(r.Dir)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		sum, err = indexer.NewIndexer(repo, indexer.Options{Embedder: embed.Default()}).Index(context.Background(), []string{"HEAD"}, 0)
		if err != nil {
			b.Fatal(err)
		}
	}
	secs := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(float64(sum.BlobsNew)/secs, "blobs/s")
	b.ReportMetric(float64(sum.Chunks)/secs, "chunks/s")
	b.ReportMetric(float64(sum.Chunks), "chunks")
}

// BenchmarkSearch measures warm query latency per mode on the indexed corpus
// (a new process pays the same plus opening the segments).
func BenchmarkSearch(b *testing.B) {
	repo, emb := indexedBenchCorpus(b)
	queries := []string{"parse the http request header", "ReadResponse", "encode base64 with padding", "dial tcp with timeout"}
	for _, mode := range []string{ModeSymbol, ModeText, ModeVector, ModeHybrid} {
		b.Run(mode, func(b *testing.B) {
			defer reportCPU(b, cpuTime())
			for i := 0; i < b.N; i++ {
				q := queries[i%len(queries)]
				if _, err := SearchIndexed(context.Background(), repo, Options{Query: q, Mode: mode, Embedder: emb}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	// A ranking of files (search --files).
	b.Run("hybrid-files", func(b *testing.B) {
		defer reportCPU(b, cpuTime())
		for i := 0; i < b.N; i++ {
			q := queries[i%len(queries)]
			if _, err := SearchIndexed(context.Background(), repo, Options{Query: q, Mode: ModeHybrid, Files: true, Embedder: emb}); err != nil {
				b.Fatal(err)
			}
		}
	})
	// The text arm over flat windows of about 1,500 characters
	// (windows.go), built from the chunks' spans for each query.
	b.Run("text-windows", func(b *testing.B) {
		restore, err := SetRankingKnobs("windows=1500")
		if err != nil {
			b.Fatal(err)
		}
		defer restore()
		defer reportCPU(b, cpuTime())
		for i := 0; i < b.N; i++ {
			q := queries[i%len(queries)]
			if _, err := SearchIndexed(context.Background(), repo, Options{Query: q, Mode: ModeText, Embedder: emb}); err != nil {
				b.Fatal(err)
			}
		}
	})
	// As a command runs it: the index is checked (and would be brought up
	// to date) before the query.
	b.Run("hybrid-checked", func(b *testing.B) {
		defer reportCPU(b, cpuTime())
		for i := 0; i < b.N; i++ {
			q := queries[i%len(queries)]
			if _, err := searchRepo(context.Background(), repo, Options{Query: q, Embedder: emb}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// indexedBenchCorpus is benchCorpus indexed with the built-in model.
func indexedBenchCorpus(b *testing.B) (*gitindex.Repo, embed.Embedder) {
	r, _ := benchCorpus(b)
	repo, err := gitindex.OpenRepo(r.Dir)
	if err != nil {
		b.Fatal(err)
	}
	emb := embed.Default()
	if _, err := indexer.NewIndexer(repo, indexer.Options{Embedder: emb}).Index(context.Background(), []string{"HEAD"}, time.Minute); err != nil {
		b.Fatal(err)
	}
	return repo, emb
}

// reportCPU reports the process's CPU time per operation since start: on a
// shared machine it moves less with the other tenants than wall time does.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64((cpuTime()-start).Microseconds())/1e3/float64(b.N), "cpu-ms/op")
}
