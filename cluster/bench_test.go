package cluster

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/internal/weaviatetest"
	"github.com/bcindex/bcindex/search"
)

// BenchmarkOrgPublish publishes GOROOT/src and modules from the module
// cache (BCINDEX_BENCH_REPOS repositories in all, default 20) to a 1-node
// and a 3-node loopback cluster, and reports the publish rate, the
// cluster's memory and query latency against local search on GOROOT/src.
// Run it alone: go test ./cluster -run XXX -bench OrgPublish -benchtime 1x
// (BCINDEX_BENCH_NOGOROOT=1 leaves GOROOT/src out and BCINDEX_BENCH_MAXMB=N
// takes modules of at most N MB of Go, for a smaller run).
func BenchmarkOrgPublish(b *testing.B) {
	weaviatetest.Need(b)
	ctx := context.Background()
	want := 20
	if v := os.Getenv("BCINDEX_BENCH_REPOS"); v != "" {
		fmt.Sscan(v, &want)
	}
	repos := benchRepos(b, want)
	var chunks int
	indexStart := time.Now()
	for _, r := range repos {
		repo, err := gitindex.OpenRepo(r.dir)
		if err != nil {
			b.Fatal(err)
		}
		sum, err := indexer.NewIndexer(repo, indexer.Options{Embedder: embed.Default()}).Index(ctx, []string{"HEAD"}, time.Minute)
		repo.Close()
		if err != nil {
			b.Fatal(err)
		}
		_ = sum
	}
	b.Logf("%d repositories indexed locally in %s", len(repos), time.Since(indexStart).Round(time.Millisecond))
	queries := []string{"read a full buffer", "parse the http header", "retry with backoff", "compress a stream", "walk the directory tree",
		"sort a slice of strings", "format a time stamp", "open a file for writing", "hash the password", "encode json value",
		"split the string on commas", "close the network connection", "lock the mutex", "decode base64", "compare two byte slices",
		"parse a url", "write a tar header", "check the checksum", "find the longest prefix", "start a goroutine pool"}
	for _, nodes := range []int{1, 3} {
		b.Run(fmt.Sprintf("nodes=%d", nodes), func(b *testing.B) {
			srv := weaviatetest.Start(b, nodes)
			c, err := Open(ctx, srv.URL())
			if err != nil {
				b.Fatal(err)
			}
			start := time.Now()
			sent := 0
			chunks = 0
			for _, r := range repos {
				repo, err := gitindex.OpenRepo(r.dir)
				if err != nil {
					b.Fatal(err)
				}
				src := NewLocal(repo, embed.Default(), indexer.Options{})
				sums, err := Publish(ctx, c, src, PublishOptions{Repo: r.name, Refs: []string{"main"}})
				src.Close()
				repo.Close()
				if err != nil {
					b.Fatal(err)
				}
				sent += sums[0].ChunksNew
				chunks += sums[0].ChunksNew + sums[0].ChunksKnown
				// A full run takes a long while: say how far it is.
				fmt.Fprintf(os.Stderr, "%d nodes: %s published, %d chunk objects sent in %s\n", nodes, r.name, sent, time.Since(start).Round(time.Second))
			}
			took := time.Since(start)
			var rss, peak int64
			for _, nd := range srv.Nodes {
				rss, peak = rss+nd.RSS(), peak+nd.PeakRSS()
			}
			remote := latencies(b, queries, func(q string) error {
				_, err := Search(ctx, c, SearchOptions{Query: q, K: 10, Embedder: embed.Default()})
				return err
			})
			repo, err := gitindex.OpenRepo(repos[0].dir)
			if err != nil {
				b.Fatal(err)
			}
			defer repo.Close()
			local := latencies(b, queries, func(q string) error {
				_, err := search.Search(ctx, repo, search.Options{Query: q, K: 10, Embedder: embed.Default(), NoIndex: true})
				return err
			})
			b.ReportMetric(float64(sent)/took.Seconds(), "chunks/s")
			b.ReportMetric(float64(rss)/(1<<20), "cluster-MiB")
			b.ReportMetric(float64(peak)/(1<<20), "cluster-peak-MiB")
			b.ReportMetric(float64(remote[0].Milliseconds()), "remote-p50-ms")
			b.ReportMetric(float64(remote[1].Milliseconds()), "remote-p95-ms")
			b.ReportMetric(float64(local[0].Milliseconds()), "local-p50-ms")
			b.ReportMetric(float64(local[1].Milliseconds()), "local-p95-ms")
			b.Logf("%d nodes: %d repositories, %d distinct chunk objects sent of %d chunk occurrences in %s (%.0f chunks/s); cluster RSS %d MiB (peak %d); org-wide query p50/p95 %s/%s; local search of %s p50/p95 %s/%s",
				nodes, len(repos), sent, chunks, took.Round(time.Millisecond), float64(sent)/took.Seconds(), rss>>20, peak>>20,
				remote[0], remote[1], repos[0].name, local[0], local[1])
		})
	}
}

// latencies runs every query twice (warm-up, then timed) and returns the
// p50 and p95.
func latencies(b *testing.B, qs []string, run func(string) error) [2]time.Duration {
	var ds []time.Duration
	for pass := 0; pass < 2; pass++ {
		for _, q := range qs {
			start := time.Now()
			if err := run(q); err != nil {
				b.Fatalf("query %q: %v", q, err)
			}
			if pass == 1 {
				ds = append(ds, time.Since(start))
			}
		}
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return [2]time.Duration{ds[len(ds)/2].Round(time.Millisecond), ds[len(ds)*95/100].Round(time.Millisecond)}
}

type benchRepo struct{ name, dir string }

// benchRepos returns n git repositories in ~/.cache/bcindex-cluster-bench:
// GOROOT/src, then the largest modules of the module cache (1–40 MB of Go
// each, or BCINDEX_BENCH_MAXMB), committed once and reused.
func benchRepos(b *testing.B, n int) []benchRepo {
	home, _ := os.UserHomeDir()
	cache := filepath.Join(home, ".cache", "bcindex-cluster-bench")
	var srcs []benchRepo
	if os.Getenv("BCINDEX_BENCH_NOGOROOT") == "" {
		srcs = append(srcs, benchRepo{"go.dev/goroot", filepath.Join(runtime.GOROOT(), "src")})
	}
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		b.Fatal(err)
	}
	modcache := strings.TrimSpace(string(out))
	var mods []string
	for _, pat := range []string{"*/*/*@*", "*/*/*/*@*"} {
		m, _ := filepath.Glob(filepath.Join(modcache, pat))
		mods = append(mods, m...)
	}
	// The largest modules first (one version of each), so twenty
	// repositories come near a million chunks.
	type mod struct {
		name, dir string
		size      int64
	}
	var cands []mod
	maxMB := int64(40)
	if v := os.Getenv("BCINDEX_BENCH_MAXMB"); v != "" {
		fmt.Sscan(v, &maxMB)
	}
	seen := map[string]bool{}
	sort.Sort(sort.Reverse(sort.StringSlice(mods))) // the newest-named version of a module first
	for _, m := range mods {
		rel, _ := filepath.Rel(modcache, m)
		name := rel[:strings.LastIndex(rel, "@")]
		if seen[name] || strings.HasPrefix(rel, "cache") || strings.Contains(rel, "!") || reservedModule(name) {
			continue
		}
		if size := goBytes(m); size >= 1<<20 && size <= maxMB<<20 {
			seen[name] = true
			cands = append(cands, mod{name, m, size})
		}
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].size > cands[j].size })
	for _, m := range cands {
		if len(srcs) >= n {
			break
		}
		srcs = append(srcs, benchRepo{m.name, m.dir})
	}
	if len(srcs) < n {
		b.Logf("only %d repositories found (asked %d)", len(srcs), n)
	}
	var repos []benchRepo
	for _, s := range srcs {
		dir := filepath.Join(cache, strings.ReplaceAll(s.name, "/", "_"))
		if _, err := os.Stat(filepath.Join(dir, ".git", "bcindex-bench-done")); err != nil {
			if err := copyToRepo(s.dir, dir); err != nil {
				b.Fatal(err)
			}
		}
		repos = append(repos, benchRepo{s.name, dir})
	}
	return repos
}

// reservedModule reports the modules cmd/bcindex-train reserves for an
// independent evaluation: they stay out of every measurement.
func reservedModule(name string) bool {
	for _, r := range []string{"spf13/cobra", "gin-gonic/gin"} {
		if strings.HasSuffix(name, "/"+r) {
			return true
		}
	}
	return false
}

func goBytes(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".go") {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

// copyToRepo commits the source files of src to a new repository at dir.
func copyToRepo(src, dir string) error {
	os.RemoveAll(dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !d.Type().IsRegular() {
			return nil
		}
		switch filepath.Ext(p) {
		case ".go", ".md", ".s", ".c", ".h", ".py", ".js", ".ts", ".proto", ".yaml", ".json":
		default:
			return nil
		}
		rel, _ := filepath.Rel(src, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		dst := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		return err
	}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"},
		{"-c", "user.name=bench", "-c", "user.email=bench@example.com", "commit", "-qm", "corpus"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %v: %v\n%s", args, err, out)
		}
	}
	return os.WriteFile(filepath.Join(dir, ".git", "bcindex-bench-done"), nil, 0o644)
}
