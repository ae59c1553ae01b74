package bench

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/bcindex/bcindex/segment"
)

// exactPatterns are the exact-search patterns: selective ones (a few
// files of a Go corpus hold them) and broad ones (most files do), each
// searched with `git grep -n` and `git-bcindex grep -n` (-F for a fixed
// string, -P otherwise) at the same revision, and the broad ones in the
// working tree too.
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
	{`TODO\(`, false, true},
	{"err != nil", true, false},
	{`\breturn\b`, false, false},
}

// ExactStats compares exact search with git grep on one revision, and
// for broad patterns in the working tree.
type ExactStats struct {
	Selective     Latency  `json:"selective_bcindex"`
	SelectiveGit  Latency  `json:"selective_git_grep"`
	Broad         Latency  `json:"broad_bcindex"`
	BroadGit      Latency  `json:"broad_git_grep"`
	Worktree      Latency  `json:"broad_worktree_bcindex"` // no revision: the working tree
	WorktreeGit   Latency  `json:"broad_worktree_git_grep"`
	SelectiveCPU  float64  `json:"selective_cpu_ratio"` // bcindex ÷ git grep, user+system CPU, medians
	BroadCPU      float64  `json:"broad_cpu_ratio"`
	WorktreeCPU   float64  `json:"broad_worktree_cpu_ratio"`
	GramsBytes    int64    `json:"grams_bytes"`
	TextBytes     int64    `json:"text_bytes"`   // content.bin: the blobs' bytes, LZ4-compressed
	SameAnswers   bool     `json:"same_answers"` // every output equal to git grep's, byte for byte
	Disagreements []string `json:"disagreements,omitempty"`
}

// exactLatency runs each pattern reps times as whole processes, both
// tools in turns, and checks that their outputs are the same bytes.
func (b *bench) exactLatency(ctx context.Context, rev string, reps int) (*ExactStats, error) {
	st := &ExactStats{SameAnswers: true}
	var sel, selGit, broad, broadGit, wt, wtGit []time.Duration
	var selCPU, selGitCPU, broadCPU, broadGitCPU, wtCPU, wtGitCPU []float64
	pair := func(p string, fixed bool, revs ...string) (g, x *proc, err error) {
		args := []string{"grep", "-n", "-P"}
		if fixed {
			args[2] = "-F"
		}
		args = append(append(args, "-e", p), revs...)
		if g, err = b.r.run(ctx, b.rp.dir, nil, []int{1}, "git", args...); err != nil {
			return nil, nil, fmt.Errorf("git grep %q: %w", p, err)
		}
		bargs := append([]string{"grep", "--no-update"}, args[1:]...)
		if x, err = b.r.run(ctx, b.rp.dir, nil, []int{1}, b.bin, bargs...); err != nil {
			return nil, nil, fmt.Errorf("git-bcindex grep %q: %w", p, err)
		}
		if !bytes.Equal(g.Stdout, x.Stdout) && st.SameAnswers {
			st.SameAnswers = false
			st.Disagreements = append(st.Disagreements, fmt.Sprintf("%q %v: %s", p, revs, firstDifference(g.Stdout, x.Stdout)))
		}
		return g, x, nil
	}
	for rep := 0; rep < reps; rep++ {
		for _, p := range exactPatterns {
			g, x, err := pair(p.pattern, p.fixed, rev)
			if err != nil {
				return nil, err
			}
			if p.selective {
				sel, selGit = append(sel, x.Elapsed), append(selGit, g.Elapsed)
				selCPU, selGitCPU = append(selCPU, x.CPU.Seconds()), append(selGitCPU, g.CPU.Seconds())
				continue
			}
			broad, broadGit = append(broad, x.Elapsed), append(broadGit, g.Elapsed)
			broadCPU, broadGitCPU = append(broadCPU, x.CPU.Seconds()), append(broadGitCPU, g.CPU.Seconds())
			if g, x, err = pair(p.pattern, p.fixed); err != nil {
				return nil, err
			}
			wt, wtGit = append(wt, x.Elapsed), append(wtGit, g.Elapsed)
			wtCPU, wtGitCPU = append(wtCPU, x.CPU.Seconds()), append(wtGitCPU, g.CPU.Seconds())
		}
	}
	st.Selective, st.SelectiveGit = latency(sel), latency(selGit)
	st.Broad, st.BroadGit = latency(broad), latency(broadGit)
	st.Worktree, st.WorktreeGit = latency(wt), latency(wtGit)
	st.SelectiveCPU = median(selCPU) / median(selGitCPU)
	st.BroadCPU = median(broadCPU) / median(broadGitCPU)
	st.WorktreeCPU = median(wtCPU) / median(wtGitCPU)
	grams, _ := filepath.Glob(segment.File(filepath.Join(b.rp.dir, ".git", "bcindex"), "*", segment.GramsFile))
	for _, g := range grams {
		st.GramsBytes += dirSize(g)
	}
	texts, _ := filepath.Glob(segment.File(filepath.Join(b.rp.dir, ".git", "bcindex"), "*", segment.ContentFile))
	for _, t := range texts {
		st.TextBytes += dirSize(t)
	}
	return st, nil
}

// firstDifference names the first line where two outputs differ.
func firstDifference(want, got []byte) string {
	w, g := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return fmt.Sprintf("line %d: git grep %.80q, bcindex %.80q", i+1, a, b)
		}
	}
	return "same lines"
}
