package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"
)

// A cold-index run times `git-bcindex index` as a new process on each
// repository of a directory, from no index, the way a user's first command
// meets a repository: semble's benchmark repositories, each a commit of its
// benchmark_root, are the suite it was made for. Several builds run in
// turns on each repository, so that a before and an after share the
// machine's load.

// ColdConfig says what a cold-index run measures.
type ColdConfig struct {
	// Dir holds the repositories: each subdirectory with a .git directory,
	// or that is a git directory itself, is one.
	Dir string
	// Bins are the git-bcindex builds, run in turns on each repository.
	Bins []string
	// Reps is how many times each build indexes each repository (default
	// 3); the median counts.
	Reps int
	// Log receives a line per repository (nil: silent).
	Log io.Writer
}

// ColdReport is the outcome of a cold-index run.
type ColdReport struct {
	Machine Machine      `json:"machine"`
	Load    [2]float64   `json:"load"` // the 1-minute load average at the start and the end
	Bins    []string     `json:"bins"`
	Repos   []ColdRepo   `json:"repos"`
	Summary []ColdSumary `json:"summary"` // per build, in Bins' order
}

// ColdRepo is one repository's medians, per build in Bins' order.
type ColdRepo struct {
	Name   string     `json:"name"`
	Files  int        `json:"files"`
	Chunks int        `json:"chunks"` // as the first build made them
	Runs   []ColdRuns `json:"runs"`
}

// ColdRuns are one build's medians on one repository.
type ColdRuns struct {
	WallMs  float64 `json:"wall_ms"`
	CPUMs   float64 `json:"cpu_ms"`
	PeakMiB float64 `json:"peak_rss_mib"`
}

// ColdSumary sums up one build over every repository's medians.
type ColdSumary struct {
	MeanWallMs   float64 `json:"mean_wall_ms"`
	MedianWallMs float64 `json:"median_wall_ms"`
	MaxWallMs    float64 `json:"max_wall_ms"`
	MaxRepo      string  `json:"max_repo"`
	MeanCPUMs    float64 `json:"mean_cpu_ms"`
	MaxCPUMs     float64 `json:"max_cpu_ms"`
}

// RunCold runs a cold-index suite.
func RunCold(ctx context.Context, cfg ColdConfig) (*ColdReport, error) {
	if cfg.Reps <= 0 {
		cfg.Reps = 3
	}
	if len(cfg.Bins) == 0 {
		return nil, fmt.Errorf("%w: no git-bcindex to run", ErrConfig)
	}
	dirs, err := coldRepos(cfg.Dir)
	if err != nil {
		return nil, err
	}
	home, err := os.MkdirTemp("", "bcindex-cold-")
	if err != nil {
		return nil, fmt.Errorf("cold index: %w", err)
	}
	defer os.RemoveAll(home)
	r := newRunner(home)
	rep := &ColdReport{Machine: machine(), Bins: cfg.Bins}
	rep.Load[0] = loadAverage()
	for _, d := range dirs {
		cr, err := coldRepo(ctx, r, d, cfg)
		if err != nil {
			return nil, err
		}
		rep.Repos = append(rep.Repos, cr)
		if cfg.Log != nil {
			fmt.Fprintf(cfg.Log, "%-20s %6d chunks", cr.Name, cr.Chunks)
			for _, x := range cr.Runs {
				fmt.Fprintf(cfg.Log, "  %7.0f ms (%6.0f CPU)", x.WallMs, x.CPUMs)
			}
			fmt.Fprintf(cfg.Log, "  load %.1f\n", loadAverage())
		}
	}
	rep.Load[1] = loadAverage()
	for i := range cfg.Bins {
		rep.Summary = append(rep.Summary, coldSummary(rep.Repos, i))
	}
	return rep, nil
}

// coldRepos lists the repositories under dir, sorted.
func coldRepos(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("%w: cold index: %v", ErrConfig, err)
	}
	var out []string
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		if _, err := os.Stat(filepath.Join(p, ".git")); err == nil {
			out = append(out, p)
		} else if _, err := os.Stat(filepath.Join(p, "HEAD")); err == nil {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: cold index: no git repository in %s", ErrConfig, dir)
	}
	return out, nil
}

// coldRepo indexes one repository cfg.Reps times with each build in turns,
// removing the index before each run.
func coldRepo(ctx context.Context, r *runner, dir string, cfg ColdConfig) (ColdRepo, error) {
	cr := ColdRepo{Name: strings.TrimSuffix(filepath.Base(dir), ".git")}
	gitDir := dir
	if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
		gitDir = filepath.Join(dir, ".git")
	}
	walls := make([][]float64, len(cfg.Bins))
	cpus := make([][]float64, len(cfg.Bins))
	peaks := make([][]float64, len(cfg.Bins))
	for rep := 0; rep < cfg.Reps; rep++ {
		for i, bin := range cfg.Bins {
			if err := os.RemoveAll(filepath.Join(gitDir, "bcindex")); err != nil {
				return cr, fmt.Errorf("cold index %s: %w", cr.Name, err)
			}
			p, err := r.run(ctx, dir, nil, nil, bin, "index", "--json")
			if err != nil {
				return cr, fmt.Errorf("cold index %s with %s: %w", cr.Name, bin, err)
			}
			if i == 0 && rep == 0 {
				var s indexSummary
				if err := json.Unmarshal(p.Stdout, &s); err != nil {
					return cr, fmt.Errorf("cold index %s: read the summary: %w", cr.Name, err)
				}
				cr.Files, cr.Chunks = s.Files, s.Chunks
			}
			walls[i] = append(walls[i], float64(p.Elapsed)/float64(time.Millisecond))
			cpus[i] = append(cpus[i], float64(p.CPU)/float64(time.Millisecond))
			peaks[i] = append(peaks[i], float64(p.MaxRSS)/(1<<20))
		}
	}
	for i := range cfg.Bins {
		cr.Runs = append(cr.Runs, ColdRuns{WallMs: median(walls[i]), CPUMs: median(cpus[i]), PeakMiB: median(peaks[i])})
	}
	return cr, nil
}

// coldSummary sums up build i over the repositories.
func coldSummary(repos []ColdRepo, i int) ColdSumary {
	var s ColdSumary
	var walls []float64
	for _, cr := range repos {
		x := cr.Runs[i]
		walls = append(walls, x.WallMs)
		s.MeanWallMs += x.WallMs / float64(len(repos))
		s.MeanCPUMs += x.CPUMs / float64(len(repos))
		s.MaxCPUMs = max(s.MaxCPUMs, x.CPUMs)
		if x.WallMs > s.MaxWallMs {
			s.MaxWallMs, s.MaxRepo = x.WallMs, cr.Name
		}
	}
	s.MedianWallMs = median(walls)
	return s
}

// loadAverage is the 1-minute load average, 0 where it cannot be read.
func loadAverage() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	var l float64
	fmt.Sscanf(string(b), "%f", &l)
	return l
}

// WriteText prints the report as a table: a row per repository, a column
// pair (wall, CPU) per build, then each build's summary.
func (rep *ColdReport) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "repository\tfiles\tchunks\t")
	for i := range rep.Bins {
		fmt.Fprintf(tw, "wall ms [%d]\tCPU ms [%d]\tpeak MiB [%d]\t", i+1, i+1, i+1)
	}
	fmt.Fprintln(tw)
	for _, cr := range rep.Repos {
		fmt.Fprintf(tw, "%s\t%d\t%d\t", cr.Name, cr.Files, cr.Chunks)
		for _, x := range cr.Runs {
			fmt.Fprintf(tw, "%.0f\t%.0f\t%.0f\t", x.WallMs, x.CPUMs, x.PeakMiB)
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\n%s, %d CPUs; load average %.1f at the start, %.1f at the end; medians of each build's runs\n", rep.Machine.CPU, rep.Machine.CPUs, rep.Load[0], rep.Load[1])
	for i, s := range rep.Summary {
		fmt.Fprintf(w, "[%d] %s: wall mean %.0f ms, median %.0f ms, max %.0f ms (%s); CPU mean %.0f ms, max %.0f ms\n",
			i+1, rep.Bins[i], s.MeanWallMs, s.MedianWallMs, s.MaxWallMs, s.MaxRepo, s.MeanCPUMs, s.MaxCPUMs)
	}
	return nil
}

// Binary returns cfg.Binary, or builds git-bcindex from cfg.Source (the
// current module by default) into work as the harness does.
func Binary(ctx context.Context, cfg Config, work string) (string, error) {
	b := &bench{cfg: cfg, logf: func(string, ...any) {}}
	return b.binary(ctx, work)
}
