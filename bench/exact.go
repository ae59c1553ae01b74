package bench

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/bcindex/bcindex/segment"
)

// exactPatterns are the exact-search patterns: selective ones (a few
// files of a Go corpus hold them) and broad ones (most files do), each
// searched with `git grep -c -P` and `git-bcindex grep -c` at the same
// revision. -F marks a fixed string.
var exactPatterns = []struct {
	pattern   string
	fixed     bool
	selective bool
}{
	{"ReadFull", true, true},
	{"deadline exceeded", true, true},
	{"Transaction", true, true},
	{`func \(\w+ \*Reader\) Read\(`, false, true},
	{`[Hh]ost[Nn]ame`, false, true},
	{"err != nil", true, false},
	{`\breturn\b`, false, false},
}

// ExactStats compares exact search with git grep on one revision.
type ExactStats struct {
	Selective     Latency  `json:"selective_bcindex"`
	SelectiveGit  Latency  `json:"selective_git_grep"`
	Broad         Latency  `json:"broad_bcindex"`
	BroadGit      Latency  `json:"broad_git_grep"`
	SelectiveCPU  float64  `json:"selective_cpu_ratio"` // bcindex ÷ git grep, user+system CPU, medians
	BroadCPU      float64  `json:"broad_cpu_ratio"`
	GramsBytes    int64    `json:"grams_bytes"`
	SameAnswers   bool     `json:"same_answers"` // every pattern's per-file counts equal git grep -I's
	Disagreements []string `json:"disagreements,omitempty"`
}

// exactLatency runs each pattern reps times as whole processes, both
// tools in turns, and checks that their answers agree.
func (b *bench) exactLatency(ctx context.Context, rev string, reps int) (*ExactStats, error) {
	st := &ExactStats{SameAnswers: true}
	var sel, selGit, broad, broadGit []time.Duration
	var selCPU, selGitCPU, broadCPU, broadGitCPU []float64
	for rep := 0; rep < reps; rep++ {
		for _, p := range exactPatterns {
			gargs := []string{"-c", "core.quotePath=false", "grep", "-c", "-I"}
			bargs := []string{"grep", "--no-update", "-c", "-I"}
			if p.fixed {
				gargs, bargs = append(gargs, "-F"), append(bargs, "-F")
			} else {
				gargs, bargs = append(gargs, "-P"), append(bargs, "-P")
			}
			g, err := b.r.run(ctx, b.rp.dir, nil, []int{1}, "git", append(gargs, "-e", p.pattern, rev, "--")...)
			if err != nil {
				return nil, fmt.Errorf("git grep %q: %w", p.pattern, err)
			}
			x, err := b.r.run(ctx, b.rp.dir, nil, []int{1}, b.bin, append(bargs, "-e", p.pattern, rev)...)
			if err != nil {
				return nil, fmt.Errorf("git-bcindex grep %q: %w", p.pattern, err)
			}
			if rep == 0 {
				if diff := compareCounts(g.Stdout, x.Stdout, rev); diff != "" {
					st.SameAnswers = false
					st.Disagreements = append(st.Disagreements, fmt.Sprintf("%q: %s", p.pattern, diff))
				}
			}
			if p.selective {
				sel, selGit = append(sel, x.Elapsed), append(selGit, g.Elapsed)
				selCPU, selGitCPU = append(selCPU, x.CPU.Seconds()), append(selGitCPU, g.CPU.Seconds())
			} else {
				broad, broadGit = append(broad, x.Elapsed), append(broadGit, g.Elapsed)
				broadCPU, broadGitCPU = append(broadCPU, x.CPU.Seconds()), append(broadGitCPU, g.CPU.Seconds())
			}
		}
	}
	st.Selective, st.SelectiveGit = latency(sel), latency(selGit)
	st.Broad, st.BroadGit = latency(broad), latency(broadGit)
	st.SelectiveCPU = median(selCPU) / median(selGitCPU)
	st.BroadCPU = median(broadCPU) / median(broadGitCPU)
	grams, _ := filepath.Glob(filepath.Join(b.rp.dir, ".git", "bcindex", "segments", "*", segment.GramsFile))
	for _, g := range grams {
		st.GramsBytes += dirSize(g)
	}
	return st, nil
}

// compareCounts compares `git grep -c REV` output (REV:path:n) with
// `git-bcindex grep -c REV`'s; it returns "" when they agree.
func compareCounts(git, bc []byte, rev string) string {
	norm := func(b []byte, prefix string) []string {
		var out []string
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if l != "" {
				out = append(out, strings.TrimPrefix(l, prefix))
			}
		}
		slices.Sort(out)
		return out
	}
	g, x := norm(git, rev+":"), norm(bc, rev+":")
	if slices.Equal(g, x) {
		return ""
	}
	return fmt.Sprintf("git grep %d files, bcindex %d (first git: %.80q, bcindex: %.80q)", len(g), len(x), first(g), first(x))
}

func first(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}
