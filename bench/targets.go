package bench

import (
	"fmt"
	"strings"
)

// ckLinesPerSec is ck's published indexing rate: about 1M lines in under
// two minutes on a laptop.
const ckLinesPerSec = 1e6 / 120

// evaluate turns the report into the performance targets.
func evaluate(r *Report, cfg Config) []Target {
	var ts []Target
	add := func(name string, pass bool, value, limit, note string) {
		ts = append(ts, Target{Name: name, Pass: pass, Value: value, Limit: limit, Note: note})
	}
	big := r.Sizes[len(r.Sizes)-1]
	add("vector scan ≥ 50% of memory read", big.Scan.Ratio >= 0.5,
		fmt.Sprintf("%.0f%%", 100*big.Scan.Ratio), "50%", fmt.Sprintf("%d rows", big.Scan.Rows))
	note := ""
	if r.Index.Files < 10000 {
		note = fmt.Sprintf("repository has %d files, the target asks for ≥ 10k", r.Index.Files)
	}
	add("1-file commit ≤ 2% of full index", r.Incremental.OneFileRatio <= 0.02,
		fmt.Sprintf("%.2f%%", 100*r.Incremental.OneFileRatio), "2%", note)
	add("second branch (1% files) ≤ 2% of full index", r.Incremental.BranchRatio <= 0.02,
		fmt.Sprintf("%.2f%%", 100*r.Incremental.BranchRatio), "2%", fmt.Sprintf("%d files differ", r.Corpus.BranchFiles))
	add("store ≤ 1.5× source", r.Index.StoreRatio <= 1.5,
		fmt.Sprintf("%.2f×", r.Index.StoreRatio), "1.5×", "")
	note = fmt.Sprintf("%d chunks", big.Chunks)
	if big.Chunks < 900_000 {
		note += "; the target asks for ~1M"
	}
	add("hybrid warm p50 < git grep p50", big.Warm["hybrid"].P50ms < big.Grep.P50ms,
		fmt.Sprintf("%.1f ms", big.Warm["hybrid"].P50ms), fmt.Sprintf("%.1f ms", big.Grep.P50ms), note)
	if e := r.Sizes[0].Exact; e != nil {
		sel := e.Selective.P50ms / e.SelectiveGit.P50ms
		add("exact, selective patterns ≤ 0.2× git grep", sel <= 0.2, fmt.Sprintf("%.2f×", sel), "0.2×", fmt.Sprintf("whole processes, p50; CPU %.2f×", e.SelectiveCPU))
		broad := e.Broad.P50ms / e.BroadGit.P50ms
		add("exact, any pattern ≤ 1× git grep", broad <= 1, fmt.Sprintf("%.2f×", broad), "1×", fmt.Sprintf("broad patterns, p50; CPU %.2f×", e.BroadCPU))
		wt := e.Worktree.P50ms / e.WorktreeGit.P50ms
		add("exact, broad patterns in the working tree ≤ 1× git grep there", wt <= 1, fmt.Sprintf("%.2f×", wt), "1×", fmt.Sprintf("p50; CPU %.2f×", e.WorktreeCPU))
		add("exact output = git grep's, byte for byte", e.SameAnswers, fmt.Sprint(e.SameAnswers), "true", strings.Join(e.Disagreements, "; "))
		g := float64(e.GramsBytes) / float64(r.Corpus.Bytes)
		add("trigram files ≤ 0.2× source", g <= 0.2, fmt.Sprintf("%.3f×", g), "0.2×", "")
	}
	add("full index ≥ 5× ck (lines/s)", r.Index.LinesPerSec >= 5*ckLinesPerSec,
		fmt.Sprintf("%.0f lines/s", r.Index.LinesPerSec), fmt.Sprintf("%.0f lines/s", 5*ckLinesPerSec), "ck: ~1M lines in 2 min")
	return ts
}
