package bench

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"text/tabwriter"
)

// Report is everything one run measured.
type Report struct {
	Machine     Machine       `json:"machine"`
	Corpus      CorpusStats   `json:"corpus"`
	Index       IndexStats    `json:"full_index"`
	Incremental Incremental   `json:"incremental"`
	Sizes       []SizeReport  `json:"sizes"`             // the corpus, then the scaled-up repository
	History     *HistoryStats `json:"history,omitempty"` // nil when skipped
	Targets     []Target      `json:"targets"`
	Notes       []string      `json:"notes,omitempty"`
	Command     string        `json:"command"`
	ElapsedSec  float64       `json:"elapsed_s"`
}

// Machine identifies where the run happened.
type Machine struct {
	CPU         string `json:"cpu"`
	CPUs        int    `json:"cpus"`
	MemGiB      int    `json:"mem_gib"`
	Go          string `json:"go"`
	OSArch      string `json:"os_arch"`
	Experiments string `json:"goexperiment"` // of the harness and git-bcindex builds
}

// CorpusStats describes the repository indexed.
type CorpusStats struct {
	Name        string `json:"name"`
	Files       int    `json:"files"`
	Bytes       int64  `json:"bytes"`
	TextFiles   int    `json:"text_files"` // see corpus.IndexFiles
	Lines       int64  `json:"lines"`
	Commits     int    `json:"commits"`
	BranchFiles int    `json:"branch_files_changed"`
}

// IndexStats is the full index of HEAD by a cold `git-bcindex index`.
type IndexStats struct {
	Files       int     `json:"files"`
	Blobs       int     `json:"blobs"`
	Bytes       int64   `json:"bytes"` // chunked
	Chunks      int     `json:"chunks"`
	Embedded    int     `json:"embedded"`
	Seconds     float64 `json:"seconds"`
	BlobsPerSec float64 `json:"blobs_per_s"`
	ChunksSec   float64 `json:"chunks_per_s"`
	MBPerSec    float64 `json:"mb_per_s"`
	LinesPerSec float64 `json:"lines_per_s"`
	PeakRSS     int64   `json:"peak_rss_bytes"`
	StoreBytes  int64   `json:"store_bytes"`
	StoreRatio  float64 `json:"store_ratio"` // store ÷ bytes chunked
}

// Incremental is the cost of small changes, relative to the full index.
type Incremental struct {
	OneFileSec   float64 `json:"one_file_s"`
	OneFileRatio float64 `json:"one_file_ratio"`
	BranchSec    float64 `json:"branch_s"` // median of BranchRuns
	// BranchRuns are the times of every indexing of the second branch, each
	// starting from the index the full index left.
	BranchRuns  []float64 `json:"branch_runs_s"`
	BranchRatio float64   `json:"branch_ratio"`
	BranchBlobs int       `json:"branch_blobs_new"`
	// Bytes the branch's new blobs hold, and their share of the full index's
	// bytes: the files edited are Go files, larger than the average file.
	BranchBytes      int64   `json:"branch_bytes"`
	BranchBytesShare float64 `json:"branch_bytes_share"`
	BranchRSS        int64   `json:"branch_peak_rss_bytes"`
}

// SizeReport is query latency and scan bandwidth at one index size.
type SizeReport struct {
	Label      string             `json:"label"`
	Rev        string             `json:"rev"`
	Files      int                `json:"files"`
	Chunks     int                `json:"chunks"`
	Warm       map[string]Latency `json:"warm"`
	Cold       map[string]Latency `json:"cold"`
	WarmHits   map[string]int     `json:"warm_hits"`
	Grep       Latency            `json:"git_grep"`
	GrepText   Latency            `json:"bcindex_text_cold_same_keywords"`
	GrepRatio  float64            `json:"text_cold_over_grep"`
	HybridGrep float64            `json:"hybrid_warm_over_grep"`
	Scan       Scan               `json:"vector_scan"`
	Exact      *ExactStats        `json:"exact,omitempty"`
}

// Target is one of the performance targets, evaluated.
type Target struct {
	Name  string `json:"name"`
	Value string `json:"value"`
	Limit string `json:"limit"`
	Pass  bool   `json:"pass"`
	Note  string `json:"note,omitempty"`
}

func machine() Machine {
	m := Machine{CPUs: runtime.NumCPU(), Go: runtime.Version(), OSArch: runtime.GOOS + "/" + runtime.GOARCH, CPU: "unknown"}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
				m.CPU = strings.TrimSpace(v)
				break
			}
		}
	}
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		var kb int64
		if _, err := fmt.Sscanf(string(b), "MemTotal: %d kB", &kb); err == nil {
			m.MemGiB = int((kb + 1<<19) >> 20)
		}
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "GOEXPERIMENT" {
				m.Experiments = s.Value
			}
		}
	}
	if m.Experiments == "" {
		m.Experiments = "none"
	}
	return m
}

// WriteText prints the report as aligned tables.
func (r *Report) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	p := func(format string, a ...any) { fmt.Fprintf(tw, format+"\n", a...) }
	m := r.Machine
	p("machine\t%s, %d CPUs, %d GiB, %s %s, GOEXPERIMENT=%s", m.CPU, m.CPUs, m.MemGiB, m.Go, m.OSArch, m.Experiments)
	c := r.Corpus
	p("corpus\t%s: %d files, %s, %d text files, %d lines; %d commits; branch changes %d files", c.Name, c.Files, mb(c.Bytes), c.TextFiles, c.Lines, c.Commits, c.BranchFiles)
	p("")
	ix := r.Index
	p("FULL INDEX\t")
	p("files / blobs / chunks\t%d / %d / %d (%d embedded)", ix.Files, ix.Blobs, ix.Chunks, ix.Embedded)
	p("bytes chunked\t%s", mb(ix.Bytes))
	p("time\t%.1f s", ix.Seconds)
	p("throughput\t%.0f blobs/s, %.0f chunks/s, %.2f MB/s, %.0f lines/s", ix.BlobsPerSec, ix.ChunksSec, ix.MBPerSec, ix.LinesPerSec)
	p("peak RSS\t%s", mb(ix.PeakRSS))
	p("store / source\t%s / %s = %.2f×", mb(ix.StoreBytes), mb(ix.Bytes), ix.StoreRatio)
	p("")
	in := r.Incremental
	p("INCREMENTAL\t")
	p("1-file commit\t%.2f s = %.2f%% of full", in.OneFileSec, 100*in.OneFileRatio)
	p("branch, %d files differ\t%.2f s = %.2f%% of full (%d new blobs, %s = %.2f%% of the bytes)", c.BranchFiles, in.BranchSec, 100*in.BranchRatio, in.BranchBlobs, mb(in.BranchBytes), 100*in.BranchBytesShare)
	if len(in.BranchRuns) > 1 {
		runs := make([]string, len(in.BranchRuns))
		for i, s := range in.BranchRuns {
			runs[i] = fmt.Sprintf("%.2f", s)
		}
		p("\tmedian of %d runs from the same index: %s s", len(runs), strings.Join(runs, ", "))
	}
	for _, s := range r.Sizes {
		p("")
		p("QUERIES @ %s (%s: %d files, %d chunks)\tp50 / p95 ms", strings.ToUpper(s.Label), s.Rev, s.Files, s.Chunks)
		for _, mode := range modes {
			wl, cl := s.Warm[mode], s.Cold[mode]
			p("%s\twarm %.2f / %.2f (n=%d, %d hits)\tcold %.1f / %.1f (n=%d)", mode, wl.P50ms, wl.P95ms, wl.N, s.WarmHits[mode], cl.P50ms, cl.P95ms, cl.N)
		}
		p("git grep -c KW %s\t%.1f / %.1f (n=%d)", s.Rev, s.Grep.P50ms, s.Grep.P95ms, s.Grep.N)
		p("bcindex --mode text, same KWs, cold\t%.1f / %.1f = %.2f× git grep", s.GrepText.P50ms, s.GrepText.P95ms, s.GrepRatio)
		p("hybrid warm p50 ÷ git grep p50\t%.3f×", s.HybridGrep)
		if e := s.Exact; e != nil {
			p("exact: git grep -n REV, selective\t%.1f / %.1f (n=%d)", e.SelectiveGit.P50ms, e.SelectiveGit.P95ms, e.SelectiveGit.N)
			p("exact: git-bcindex grep -n REV, selective\t%.1f / %.1f = %.2f× git grep (CPU %.2f×)", e.Selective.P50ms, e.Selective.P95ms, e.Selective.P50ms/e.SelectiveGit.P50ms, e.SelectiveCPU)
			p("exact: git grep -n REV, broad\t%.1f / %.1f (n=%d)", e.BroadGit.P50ms, e.BroadGit.P95ms, e.BroadGit.N)
			p("exact: git-bcindex grep -n REV, broad\t%.1f / %.1f = %.2f× git grep (CPU %.2f×)", e.Broad.P50ms, e.Broad.P95ms, e.Broad.P50ms/e.BroadGit.P50ms, e.BroadCPU)
			p("exact: git grep -n, broad, working tree\t%.1f / %.1f (n=%d)", e.WorktreeGit.P50ms, e.WorktreeGit.P95ms, e.WorktreeGit.N)
			p("exact: git-bcindex grep -n, broad, working tree\t%.1f / %.1f = %.2f× git grep (CPU %.2f×)", e.Worktree.P50ms, e.Worktree.P95ms, e.Worktree.P50ms/e.WorktreeGit.P50ms, e.WorktreeCPU)
			p("exact: trigram files, texts\t%s, %s; same output as git grep: %v %s", mb(e.GramsBytes), mb(e.TextBytes), e.SameAnswers, strings.Join(e.Disagreements, "; "))
		}
		sc := s.Scan
		p("vector scan\t%d rows × %d dims = %s in %d segments: %.2f ms, %.2f GB/s", sc.Rows, sc.Dim, mb(sc.Bytes), sc.Segments, sc.ScanMs, sc.ScanGBs)
		p("memory read loop (%d threads)\t%.2f GB/s; scan ÷ memory = %.0f%%", sc.Threads, sc.MemGBs, 100*sc.Ratio)
	}
	if h := r.History; h != nil {
		p("")
		writeHistory(p, h)
	}
	p("")
	p("TARGETS\t")
	for _, t := range r.Targets {
		v := "FAIL"
		if t.Pass {
			v = "PASS"
		}
		note := ""
		if t.Note != "" {
			note = " (" + t.Note + ")"
		}
		p("%s %s\t%s vs %s%s", v, t.Name, t.Value, t.Limit, note)
	}
	for _, n := range r.Notes {
		p("note\t%s", n)
	}
	p("elapsed\t%.0f s", r.ElapsedSec)
	return tw.Flush()
}

func mb(n int64) string {
	return fmt.Sprintf("%.1f MB", float64(n)/1e6)
}

// writeHistory prints the history measurement.
func writeHistory(p func(string, ...any), h *HistoryStats) {
	p("HISTORY\t%s @ %.12s, first parents", h.Repo, h.Head)
	p("commits indexed\t%d (asked %d; HEAD has %d first-parent commits)", h.Commits, h.Requested, h.Available)
	p("single revision (HEAD)\t%d files, %d blobs, %d chunks: %.1f s, store %s", h.SingleFiles, h.SingleBlobs, h.SingleChunks, h.SingleSec, mb(h.SingleStoreBytes))
	p("history index, HEAD indexed\t%.1f s, %d new chunks, peak RSS %s (HEAD + history: %.1f s)", h.Seconds, h.Chunks, mb(h.PeakRSS), h.TotalSec)
	per := fmt.Sprintf("%.1f s with HEAD indexed, %.1f s from scratch", h.PerKCommitSec, h.PerKCommitTotalSec)
	if h.Extrapolated {
		per += fmt.Sprintf(" (extrapolated linearly from %d commits)", h.Commits)
	}
	p("time per 1,000 commits\t%s", per)
	avg := 0.0
	if h.Commits > 0 {
		avg = float64(h.FileEntries) / float64(h.Commits)
	}
	p("distinct blobs vs commits × files\t%d (%d new, %d of HEAD reused) vs %d × %.0f = %d file entries (%d skipped): %.2f%%",
		h.Blobs, h.BlobsNew, h.BlobsReused, h.Commits, avg, h.FileEntries, h.Skipped, 100*h.BlobShare)
	p("store ÷ single revision\t%s / %s = %.2f×", mb(h.StoreBytes), mb(h.SingleStoreBytes), h.StoreRatio)
	if sp := h.StoreParts; sp != nil {
		p("store parts\tvectors %s (%d rows), log beyond vectors %s, chunks %s, postings %s, trigrams %s, content %s, records %s, trees %s, changes %s",
			mb(sp.Vectors), sp.VectorRows, mb(sp.LogOther()), mb(sp.Chunks), mb(sp.Postings), mb(sp.Trigrams), mb(sp.Content),
			mb(sp.Tables+sp.DBOther), mb(sp.Trees), mb(sp.Changes))
	}
}
