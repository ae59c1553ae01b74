package cluster

import (
	"context"
	"fmt"
	"os"
	"sort"
	"syscall"
	"testing"
	"time"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/internal/testkit/weaviatetest"
	"github.com/bcindex/bcindex/search"
)

// BenchmarkOrgPublish publishes GOROOT/src and modules from the module
// cache (benchCorpus: BCINDEX_BENCH_REPOS repositories, default 20, and
// with BCINDEX_BENCH_CHUNKS=N as many more as N distinct chunks take) to a
// 1-node and a 3-node loopback cluster, and reports the publish rate, the
// cluster's memory and query latency against local search on GOROOT/src.
// Run it alone: go test ./cluster -run XXX -bench OrgPublish -benchtime 1x
// (BCINDEX_BENCH_NOGOROOT=1 leaves GOROOT/src out and BCINDEX_BENCH_MAXMB=N
// takes modules of at most N MB of Go, for a smaller run). Objects are
// written over gRPC; BCINDEX_BENCH_REST=1 writes them over REST, and
// BCINDEX_BENCH_BATCH=N writes N objects a batch (default: publish's).
func BenchmarkOrgPublish(b *testing.B) {
	weaviatetest.Need(b)
	ctx := context.Background()
	indexStart := time.Now()
	repos, occurrences, distinct := benchCorpus(b)
	b.Logf("%d repositories, %d chunk occurrences, %d distinct chunks, indexed locally in %s",
		len(repos), occurrences, distinct, time.Since(indexStart).Round(time.Millisecond))
	queries := []string{"read a full buffer", "parse the http header", "retry with backoff", "compress a stream", "walk the directory tree",
		"sort a slice of strings", "format a time stamp", "open a file for writing", "hash the password", "encode json value",
		"split the string on commas", "close the network connection", "lock the mutex", "decode base64", "compare two byte slices",
		"parse a url", "write a tar header", "check the checksum", "find the longest prefix", "start a goroutine pool"}
	for _, nodes := range []int{1, 3} {
		b.Run(fmt.Sprintf("nodes=%d", nodes), func(b *testing.B) {
			srv := weaviatetest.Start(b, nodes)
			opts := Options{GRPC: srv.Nodes[0].GRPC}
			if os.Getenv("BCINDEX_BENCH_REST") != "" {
				opts.GRPC = "" // writes over REST, as without bcindex.remote.grpc
			}
			c, err := OpenWith(ctx, srv.URL(), opts)
			if err != nil {
				b.Fatal(err)
			}
			start, cpu0, client0 := time.Now(), clusterCPU(srv), processCPU()
			sent := 0
			var load loadRange
			for _, r := range repos {
				repo, err := gitindex.OpenRepo(r.dir)
				if err != nil {
					b.Fatal(err)
				}
				src := NewLocal(repo, embed.Default(), indexer.Options{})
				sums, err := Publish(ctx, c, src, PublishOptions{Repo: r.name, Refs: []string{"main"}, Batch: envInt("BCINDEX_BENCH_BATCH", 0)})
				src.Close()
				repo.Close()
				if err != nil {
					b.Fatal(err)
				}
				sent += sums[0].ChunksNew
				// A full run takes a long while: say how far it is.
				fmt.Fprintf(os.Stderr, "%d nodes: %s published, %d chunk objects sent in %s, load average %.1f\n",
					nodes, r.name, sent, time.Since(start).Round(time.Second), load.sample())
			}
			took := time.Since(start)
			serverCPU, clientCPU := clusterCPU(srv)-cpu0, processCPU()-client0
			load.sample()
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
				_, err := search.SearchIndexed(ctx, repo, search.Options{Query: q, K: 10, Embedder: embed.Default()})
				return err
			})
			b.ReportMetric(float64(sent)/took.Seconds(), "chunks/s")
			b.ReportMetric(float64(rss)/(1<<20), "cluster-MiB")
			b.ReportMetric(float64(peak)/(1<<20), "cluster-peak-MiB")
			b.ReportMetric(serverCPU.Seconds()*1000/float64(max(sent, 1)), "server-CPU-ms/chunk")
			b.ReportMetric(clientCPU.Seconds()*1000/float64(max(sent, 1)), "client-CPU-ms/chunk")
			b.ReportMetric(float64(remote[0].Milliseconds()), "remote-p50-ms")
			b.ReportMetric(float64(remote[1].Milliseconds()), "remote-p95-ms")
			b.ReportMetric(float64(local[0].Milliseconds()), "local-p50-ms")
			b.ReportMetric(float64(local[1].Milliseconds()), "local-p95-ms")
			b.Logf("%d nodes: %d repositories, %d distinct chunk objects sent of %d chunk occurrences in %s (%.0f chunks/s); CPU %s servers, %s publisher; load average %.1f–%.1f; cluster RSS %d MiB (peak %d); org-wide query p50/p95 %s/%s; local search of %s p50/p95 %s/%s",
				nodes, len(repos), sent, occurrences, took.Round(time.Millisecond), float64(sent)/took.Seconds(), serverCPU.Round(time.Second), clientCPU.Round(time.Second),
				load.lo, load.hi, rss>>20, peak>>20, remote[0], remote[1], repos[0].name, local[0], local[1])
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

// clusterCPU is the processor time every node of srv has used.
func clusterCPU(srv *weaviatetest.Cluster) time.Duration {
	var d time.Duration
	for _, nd := range srv.Nodes {
		d += nd.CPU()
	}
	return d
}

// processCPU is the processor time this process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// loadRange keeps the lowest and highest 1-minute load average sampled.
type loadRange struct{ lo, hi float64 }

func (l *loadRange) sample() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	var v float64
	fmt.Sscan(string(b), &v)
	if l.hi == 0 || v < l.lo {
		l.lo = v
	}
	l.hi = max(l.hi, v)
	return v
}
