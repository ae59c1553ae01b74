package bench

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
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
	rep, err := Run(ctx, Config{Quick: true, Reps: 2, ColdReps: 1, Log: &log})
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, log.String())
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
	if in.OneFileSec <= 0 || in.BranchSec <= 0 || in.OneFileRatio <= 0 || in.BranchRatio <= 0 || in.BranchBlobs != c.BranchFiles {
		t.Errorf("incremental = %+v (branch files %d)", in, c.BranchFiles)
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
	if len(rep.Targets) != 6 {
		t.Errorf("%d targets, want 6", len(rep.Targets))
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
	for _, want := range []string{"FULL INDEX", "INCREMENTAL", "QUERIES @ CORPUS", "vector scan", "git grep", "TARGETS"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text report lacks %q", want)
		}
	}
	if _, err := json.Marshal(rep); err != nil {
		t.Errorf("JSON: %v", err)
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
