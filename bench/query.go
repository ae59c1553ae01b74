package bench

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/search"
)

// Modes measured, in report order.
var modes = []string{search.ModeSymbol, search.ModeText, search.ModeVector, search.ModeHybrid}

// queries per mode: written for Go code in general (the corpus is Go), so
// that they find something in Kubernetes, GOROOT and GOROOT/src/net alike.
var queries = map[string][]string{
	search.ModeSymbol: {"ServeHTTP", "NewReader", "ParseIP", "DialContext", "Unmarshal", "String"},
	search.ModeText:   {"timeout", "connection refused", "parse address", "retry backoff", "certificate", "deadline exceeded"},
	search.ModeVector: {"parse the http request header", "retry with exponential backoff", "resolve a host name to ip addresses", "close the connection when the context is cancelled"},
	search.ModeHybrid: {"ParseIP", "read the response body", "retry with backoff", "DialContext timeout", "lookup host", "encode json"},
}

// grepKeywords are single words searched with both git grep and the text
// arm (one keyword: git grep's best case).
var grepKeywords = []string{"timeout", "deadline", "hostname", "certificate", "Backoff", "Unmarshal"}

// Latency summarises repeated timings.
type Latency struct {
	N     int     `json:"n"`
	P50ms float64 `json:"p50_ms"`
	P95ms float64 `json:"p95_ms"`
}

func latency(d []time.Duration) Latency {
	if len(d) == 0 {
		return Latency{}
	}
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	pct := func(p float64) float64 {
		i := int(p*float64(len(s))+0.999999) - 1 // nearest rank
		return ms(s[min(max(i, 0), len(s)-1)])
	}
	return Latency{N: len(s), P50ms: pct(0.50), P95ms: pct(0.95)}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// warmBudget bounds the timed passes of one mode in a warm process: at a
// million chunks, reps passes could take minutes.
const warmBudget = 20 * time.Second

// warmLatency runs each query reps times in this process after one
// untimed pass (the segments mapped and the tree listing cached by the OS),
// stopping early after warmBudget. It also returns the number of hits of
// the last pass, to show that the queries find something.
func warmLatency(ctx context.Context, repo *gitindex.Repo, rev, mode string, qs []string, reps int) (Latency, int, error) {
	emb := embed.Default()
	var times []time.Duration
	hits := 0
	start := time.Now()
	for pass := -1; pass < reps; pass++ {
		if pass > 0 && time.Since(start) > warmBudget {
			break
		}
		hits = 0
		for _, q := range qs {
			t := time.Now()
			res, err := search.SearchIndexed(ctx, repo, search.Options{Query: q, Rev: rev, Mode: mode, K: 10, Embedder: emb})
			if err != nil {
				return Latency{}, 0, fmt.Errorf("warm %s search %q: %w", mode, q, err)
			}
			if pass >= 0 {
				times = append(times, time.Since(t))
			}
			hits += len(res.Hits)
		}
	}
	return latency(times), hits, nil
}

// coldLatency runs `git-bcindex search` as a new process per query.
func coldLatency(ctx context.Context, r *runner, bin, dir, rev, mode string, qs []string, reps int) (Latency, error) {
	var times []time.Duration
	for range reps {
		for _, q := range qs {
			p, err := r.run(ctx, dir, nil, []int{1}, bin, "search", "--no-index", "--json", "--mode", mode, "--ref", rev, "-k", "10", q)
			if err != nil {
				return Latency{}, fmt.Errorf("cold %s search: %w", mode, err)
			}
			times = append(times, p.Elapsed)
		}
	}
	return latency(times), nil
}

// grepLatency runs `git grep -c KEYWORD REV` per keyword.
func grepLatency(ctx context.Context, r *runner, dir, rev string, kws []string, reps int) (Latency, error) {
	var times []time.Duration
	for range reps {
		for _, kw := range kws {
			p, err := r.run(ctx, dir, nil, []int{1}, "git", "grep", "-c", kw, rev, "--")
			if err != nil {
				return Latency{}, fmt.Errorf("git grep: %w", err)
			}
			times = append(times, p.Elapsed)
		}
	}
	return latency(times), nil
}
