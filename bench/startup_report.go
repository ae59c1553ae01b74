package bench

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// Start-up targets: --version within a few milliseconds, grep of a small
// repository within 1.2× git grep's whole-process time, and a search's
// first answer within 30 ms.
const (
	startupVersionMs = 5
	startupGrepRatio = 1.2
	startupSearchMs  = 30
)

// startupTargets judges the first build's medians.
func startupTargets(rows []StartupRow) []Target {
	var ts []Target
	for _, row := range rows {
		x := row.Runs[0]
		switch {
		case row.Command == "git bcindex --version":
			ts = append(ts, Target{Name: fmt.Sprintf("--version ≤ %d ms", startupVersionMs), Pass: x.WallMs <= startupVersionMs,
				Value: fmt.Sprintf("%.1f ms", x.WallMs), Limit: fmt.Sprintf("%d ms", startupVersionMs),
				Note: fmt.Sprintf("CPU %.1f ms", x.CPUMs)})
		case strings.HasPrefix(row.Command, "git bcindex grep ") && row.Git != nil:
			ratio := x.WallMs / row.Git.WallMs
			ts = append(ts, Target{Name: fmt.Sprintf("%s ≤ %.1f× git grep", strings.TrimPrefix(row.Command, "git bcindex "), startupGrepRatio),
				Pass: ratio <= startupGrepRatio, Value: fmt.Sprintf("%.2f×", ratio), Limit: fmt.Sprintf("%.1f×", startupGrepRatio),
				Note: fmt.Sprintf("%.1f ms vs %.1f ms; CPU %.2f×", x.WallMs, row.Git.WallMs, x.CPUMs/row.Git.CPUMs)})
		case strings.HasPrefix(row.Command, "git bcindex search "):
			ts = append(ts, Target{Name: fmt.Sprintf("first search ≤ %d ms", startupSearchMs), Pass: x.WallMs <= startupSearchMs,
				Value: fmt.Sprintf("%.1f ms", x.WallMs), Limit: fmt.Sprintf("%d ms", startupSearchMs),
				Note: fmt.Sprintf("CPU %.1f ms", x.CPUMs)})
		}
	}
	return ts
}

// WriteText prints the report: a row per command with each build's median
// wall and CPU time and git's beside, then the targets.
func (rep *StartupReport) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "%s, %d CPUs, %s; %s, %d files; load average %.1f at the start, %.1f at the end\n",
		rep.Machine.CPU, rep.Machine.CPUs, rep.Machine.Go, rep.Repo, rep.Files, rep.Load[0], rep.Load[1])
	for i, b := range rep.Bins {
		fmt.Fprintf(w, "[%d] %s\n", i+1, b)
	}
	fmt.Fprintln(w, "medians, whole processes, ms: wall (CPU)")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, "command\t")
	for i := range rep.Bins {
		fmt.Fprintf(tw, "[%d]\t", i+1)
	}
	fmt.Fprintln(tw, "git\t")
	for _, row := range rep.Rows {
		fmt.Fprintf(tw, "%s\t", row.Command)
		for _, x := range row.Runs {
			fmt.Fprintf(tw, "%.1f (%.1f)\t", x.WallMs, x.CPUMs)
		}
		if row.Git != nil {
			fmt.Fprintf(tw, "%.1f (%.1f): %s\t", row.Git.WallMs, row.Git.CPUMs, row.GitCmd)
		} else {
			fmt.Fprint(tw, "\t")
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, t := range rep.Targets {
		verdict := "FAIL"
		if t.Pass {
			verdict = "PASS"
		}
		fmt.Fprintf(w, "%s %s: %s vs %s (%s)\n", verdict, t.Name, t.Value, t.Limit, t.Note)
	}
	return nil
}
