package bench

import (
	"context"
	"encoding/json"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bcindex/bcindex/store"
)

// TestQuick runs the smoke mode end to end (GOROOT/src/net) and checks that
// every field of the report is populated and consistent. It asserts no
// timings: only that they were measured.
func TestQuick(t *testing.T) {
	if testing.Short() {
		t.Skip("builds git-bcindex and indexes GOROOT/src/net")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	var log strings.Builder
	cfg := Config{Quick: true, Reps: 2, ColdReps: 1, Log: &log}
	// The history of the checkout the test runs in; none outside a git
	// repository (a source archive).
	histRepo, err := historyRepo(ctx, Config{})
	switch {
	case err != nil:
		t.Logf("no history measurement: %v", err)
		cfg.HistoryCommits, histRepo = -1, ""
	case shallow(ctx, &runner{}, histRepo):
		t.Logf("no history measurement: %s is a shallow clone", histRepo)
		cfg.HistoryCommits, histRepo = -1, ""
	}
	rep, err := Run(ctx, cfg)
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, log.String())
	}
	if histRepo == "" {
		if rep.History != nil {
			t.Errorf("history measured though skipped: %+v", rep.History)
		}
	} else {
		checkHistory(t, rep.History, histRepo)
	}
	c, ix, in := rep.Corpus, rep.Index, rep.Incremental
	if c.Files < 100 || c.Bytes <= 0 || c.Lines <= 0 || c.Commits != 5 || c.BranchFiles < 1 {
		t.Errorf("corpus = %+v", c)
	}
	if ix.Files < 100 || ix.Blobs < 100 || ix.Chunks < ix.Blobs || ix.Bytes <= 0 || ix.Embedded <= 0 {
		t.Errorf("index counts = %+v", ix)
	}
	if ix.Seconds <= 0 || ix.BlobsPerSec <= 0 || ix.ChunksSec <= 0 || ix.MBPerSec <= 0 || ix.PeakRSS < 1<<20 || ix.StoreBytes <= 0 || ix.StoreRatio <= 0 {
		t.Errorf("index rates = %+v", ix)
	}
	if in.OneFileSec <= 0 || in.BranchSec <= 0 || in.OneFileRatio <= 0 || in.BranchRatio <= 0 || in.BranchBlobs != c.BranchFiles ||
		in.BranchBytes <= 0 || in.BranchBytesShare <= 0 || in.BranchBytesShare >= 1 {
		t.Errorf("incremental = %+v (branch files %d)", in, c.BranchFiles)
	}
	// Every run after the first starts from a restored copy of the index, so
	// each must have found the branch's blobs new again.
	if len(in.BranchRuns) != 3 || in.BranchSec != median(in.BranchRuns) || slices.Min(in.BranchRuns) <= 0 {
		t.Errorf("branch runs = %v, median %v", in.BranchRuns, in.BranchSec)
	}
	if len(rep.Sizes) != 1 {
		t.Fatalf("quick mode measured %d sizes, want 1", len(rep.Sizes))
	}
	s := rep.Sizes[0]
	if s.Chunks < ix.Chunks || s.Files != ix.Files {
		t.Errorf("size %+v: chunks/files disagree with the index %d/%d", s, ix.Chunks, ix.Files)
	}
	for _, m := range modes {
		w, cl := s.Warm[m], s.Cold[m]
		if w.N != 2*len(queries[m]) || w.P50ms <= 0 || w.P95ms < w.P50ms {
			t.Errorf("warm %s = %+v", m, w)
		}
		if cl.N != len(queries[m]) || cl.P50ms <= 0 || cl.P95ms < cl.P50ms {
			t.Errorf("cold %s = %+v", m, cl)
		}
		if s.WarmHits[m] == 0 {
			t.Errorf("%s queries found nothing in %s", m, c.Name)
		}
	}
	if s.Grep.N != len(grepKeywords) || s.Grep.P50ms <= 0 || s.GrepText.P50ms <= 0 || s.GrepRatio <= 0 || s.HybridGrep <= 0 {
		t.Errorf("grep comparison = %+v %+v %g %g", s.Grep, s.GrepText, s.GrepRatio, s.HybridGrep)
	}
	sc := s.Scan
	if sc.Rows < ix.Chunks/2 || sc.Dim <= 0 || sc.Bytes != int64(sc.Rows*sc.Dim) || sc.ScanGBs <= 0 || sc.MemGBs <= 0 || sc.Ratio <= 0 {
		t.Errorf("scan = %+v", sc)
	}
	if e := s.Exact; e == nil || e.Selective.N == 0 || e.SelectiveGit.P50ms <= 0 || e.Broad.N == 0 || e.Worktree.N == 0 || e.GramsBytes <= 0 || e.TextBytes <= 0 {
		t.Errorf("exact comparison = %+v", e)
	} else if !e.SameAnswers {
		t.Errorf("grep and git grep disagree: %v", e.Disagreements)
	}
	if len(rep.Targets) != 11 {
		t.Errorf("%d targets, want 11", len(rep.Targets))
	}
	for _, tg := range rep.Targets {
		if tg.Name == "" || tg.Value == "" || tg.Limit == "" {
			t.Errorf("target %+v incomplete", tg)
		}
	}
	var text strings.Builder
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	wants := []string{"FULL INDEX", "INCREMENTAL", "QUERIES @ CORPUS", "vector scan", "git grep", "TARGETS"}
	if rep.History != nil {
		wants = append(wants, "HISTORY", "time per 1,000 commits", "distinct blobs vs commits × files", "store ÷ single revision")
		if rep.History.Extrapolated {
			wants = append(wants, "extrapolated linearly")
		}
	}
	for _, want := range wants {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text report lacks %q", want)
		}
	}
	js, err := json.Marshal(rep)
	if err != nil {
		t.Errorf("JSON: %v", err)
	}
	if rep.History != nil && !strings.Contains(string(js), `"per_1k_commits_s"`) {
		t.Errorf("JSON report lacks the history")
	}
}

// checkHistory checks the quick mode's history measurement of repo.
func checkHistory(t *testing.T, h *HistoryStats, repo string) {
	t.Helper()
	if h == nil {
		t.Fatal("no history measurement")
	}
	if h.Repo != repo || len(h.Head) != 40 || h.Available < 1 || h.Requested != QuickHistory || h.Commits != min(QuickHistory, h.Available) {
		t.Errorf("history commits = %+v (repo %s)", h, repo)
	}
	if h.SingleFiles < 1 || h.SingleBlobs < 1 || h.SingleChunks < 1 || h.SingleSec <= 0 || h.SingleStoreBytes <= 0 {
		t.Errorf("single-revision index = %+v", h)
	}
	near := func(a, b float64) bool { return a >= b*0.999 && a <= b*1.001 }
	if h.Seconds <= 0 || h.PeakRSS < 1<<20 || !near(h.PerKCommitSec, h.Seconds*1000/float64(h.Commits)) ||
		h.Extrapolated != (h.Commits < 1000) || !near(h.TotalSec, h.SingleSec+h.Seconds) ||
		!near(h.PerKCommitTotalSec, h.TotalSec*1000/float64(h.Commits)) {
		t.Errorf("history times = %+v", h)
	}
	// HEAD is among the commits; each distinct blob is counted once, and
	// HEAD's were indexed by the single-revision run.
	if h.FileEntries < h.SingleFiles || h.Skipped < 0 || h.Blobs < h.SingleBlobs || h.Blobs > h.FileEntries-h.Skipped ||
		h.Blobs != h.BlobsNew+h.BlobsReused || h.BlobsReused != h.SingleBlobs || !near(h.BlobShare, float64(h.Blobs)/float64(h.FileEntries)) {
		t.Errorf("history blobs = %+v", h)
	}
	if h.BlobsNew == 0 && h.Chunks > 0 {
		t.Errorf("history: %d new blobs but %d new chunks", h.BlobsNew, h.Chunks)
	}
	if sp := h.StoreParts; sp == nil || sp.ValueLog < sp.Vectors || sp.Vectors <= 0 || sp.Chunks <= 0 || sp.Postings <= 0 {
		t.Errorf("history store parts = %+v (store %d bytes)", sp, h.StoreBytes)
	}
	if h.StoreBytes < h.SingleStoreBytes || !near(h.StoreRatio, float64(h.StoreBytes)/float64(h.SingleStoreBytes)) {
		t.Errorf("history store = %d bytes, ratio %g; single revision %d", h.StoreBytes, h.StoreRatio, h.SingleStoreBytes)
	}
}

// TestCancel checks that a cancelled run stops with the context's error.
func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Run(ctx, Config{Quick: true})
	if err == nil || ctx.Err() == nil {
		t.Fatalf("Run on a cancelled context: err = %v", err)
	}
}

func TestConfig(t *testing.T) {
	for _, c := range []Config{
		{Module: "github.com/spf13/cobra", Version: "v1.8.0"},
		{Module: "example.com/m"},
		{},
		{Quick: true, BranchFraction: 2},
	} {
		if _, err := c.withDefaults(); err == nil {
			t.Errorf("%+v: no error", c)
		}
	}
}

func TestLatency(t *testing.T) {
	var d []time.Duration
	for i := 100; i >= 1; i-- {
		d = append(d, time.Duration(i)*time.Millisecond)
	}
	l := latency(d)
	if l.N != 100 || l.P50ms != 50 || l.P95ms != 95 {
		t.Errorf("latency = %+v, want n=100 p50=50 p95=95", l)
	}
}

// TestHistoryText checks that the per-1,000-commit time is labelled as
// extrapolated only when fewer commits were indexed.
func TestHistoryText(t *testing.T) {
	for _, n := range []int{32, 1500} {
		h := &HistoryStats{Repo: "r", Head: strings.Repeat("a", 40), Commits: n, Requested: n, Available: n, Seconds: 1, PerKCommitSec: 1000 / float64(n), Extrapolated: n < 1000,
			StoreParts: &store.Parts{Vectors: 3 << 20, VectorRows: 12000, ValueLog: 5 << 20}}
		var b strings.Builder
		if err := (&Report{History: h}).WriteText(&b); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(b.String(), "extrapolated linearly"); got != (n < 1000) || !strings.Contains(b.String(), "HISTORY") ||
			!strings.Contains(b.String(), "(12000 rows), log beyond vectors 2.1 MB") {
			t.Errorf("%d commits: text report\n%s", n, b.String())
		}
	}
}

func TestMedian(t *testing.T) {
	for _, tc := range []struct {
		in   []float64
		want float64
	}{
		{[]float64{3}, 3},
		{[]float64{0.5, 0.2, 0.9}, 0.5},
		{[]float64{4, 1, 3, 2}, 2.5},
	} {
		in := slices.Clone(tc.in)
		if got := median(in); got != tc.want || !slices.Equal(in, tc.in) {
			t.Errorf("median(%v) = %v (input now %v), want %v", tc.in, got, in, tc.want)
		}
	}
}

// TestPeakRSSIsTheChilds: a child started while this process holds a large
// heap reports its own peak, not this process's (which its rusage would).
func TestPeakRSSIsTheChilds(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc")
	}
	heap := make([]byte, 300<<20)
	for i := range heap {
		heap[i] = byte(i)
	}
	p, err := newRunner(t.TempDir()).run(context.Background(), t.TempDir(), nil, nil, "sleep", "0.2")
	if err != nil {
		t.Fatal(err)
	}
	if p.MaxRSS <= 0 || p.MaxRSS > 100<<20 {
		t.Errorf("sleep's peak RSS = %d MB, want a few MB (this process holds %d MB)", p.MaxRSS>>20, len(heap)>>20)
	}
	runtime.KeepAlive(heap)
}
