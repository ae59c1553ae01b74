package bench

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// A start-up run times the short commands a script, an editor or a git
// alias starts again and again — --version, help, grep, log -S, status and
// a first search — each as a new process on a small repository, with `git
// grep` (and `git log -S`) beside, several builds in turns so that a before
// and an after share the machine's load.

// StartupModule and StartupVersion are the default small repository: a
// module of ~160 files.
const (
	StartupModule  = "github.com/dgraph-io/badger/v4"
	StartupVersion = "v4.9.6"
)

// StartupConfig says what a start-up run measures.
type StartupConfig struct {
	// Bins are the git-bcindex builds, run in turns.
	Bins []string
	// Reps is how many times each command runs per build (default 20); the
	// median counts.
	Reps int
	// Repo is a git repository to measure in; "" builds one from Module at
	// Version (default StartupModule), committed once and packed as a clone.
	Repo            string
	Module, Version string
	// Pattern is what grep and log -S look for (default "Commit").
	Pattern string
	// Query is the first search's query (default "retry a transaction that conflicts").
	Query string
	Log   io.Writer
}

// StartupReport is the outcome of a start-up run.
type StartupReport struct {
	Machine Machine      `json:"machine"`
	Load    [2]float64   `json:"load"` // the 1-minute load average at the start and the end
	Repo    string       `json:"repo"`
	Files   int          `json:"files"`
	Bins    []string     `json:"bins"`
	Rows    []StartupRow `json:"rows"`
	Targets []Target     `json:"targets"` // of the first build
}

// StartupRow is one command's medians: Runs per build in Bins' order, and
// Git for the git command beside it (nil when none).
type StartupRow struct {
	Command string      `json:"command"`
	GitCmd  string      `json:"git_command,omitempty"`
	Runs    []StartupMs `json:"runs"`
	Git     *StartupMs  `json:"git,omitempty"`
}

// StartupMs are the medians of one command's runs.
type StartupMs struct {
	WallMs float64 `json:"wall_ms"`
	CPUMs  float64 `json:"cpu_ms"`
}

// startupCmd is one measured command: git-bcindex's arguments, git's
// (nil: none), and the exit codes that are not failures.
type startupCmd struct {
	args, git []string
	ok        []int
}

// RunStartup runs the start-up suite.
func RunStartup(ctx context.Context, cfg StartupConfig) (*StartupReport, error) {
	if len(cfg.Bins) == 0 {
		return nil, fmt.Errorf("%w: no git-bcindex to run", ErrConfig)
	}
	cfg = startupDefaults(cfg)
	home, err := os.MkdirTemp("", "bcindex-startup-")
	if err != nil {
		return nil, fmt.Errorf("start-up: %w", err)
	}
	defer os.RemoveAll(home)
	r := newRunner(home)
	dir, files, err := startupRepo(ctx, r, cfg, home)
	if err != nil {
		return nil, err
	}
	// Every build reads the same index, made once by the first (the
	// builds measured share the index schema).
	if _, err := r.run(ctx, dir, nil, nil, cfg.Bins[0], "index", "--json"); err != nil {
		return nil, fmt.Errorf("start-up: index %s: %w", dir, err)
	}
	rep := &StartupReport{Machine: machine(), Repo: dir, Files: files, Bins: cfg.Bins}
	if cfg.Repo == "" {
		rep.Repo = cfg.Module + "@" + cfg.Version
	}
	rep.Load[0] = loadAverage()
	for _, c := range startupCommands(cfg) {
		row, err := startupRow(ctx, r, dir, cfg, c)
		if err != nil {
			return nil, err
		}
		rep.Rows = append(rep.Rows, row)
		if cfg.Log != nil {
			fmt.Fprintf(cfg.Log, "%-40s", row.Command)
			for _, x := range row.Runs {
				fmt.Fprintf(cfg.Log, "  %6.1f ms (%5.1f CPU)", x.WallMs, x.CPUMs)
			}
			if row.Git != nil {
				fmt.Fprintf(cfg.Log, "  git %6.1f ms (%5.1f CPU)", row.Git.WallMs, row.Git.CPUMs)
			}
			fmt.Fprintf(cfg.Log, "  load %.1f\n", loadAverage())
		}
	}
	rep.Load[1] = loadAverage()
	rep.Targets = startupTargets(rep.Rows)
	return rep, nil
}

func startupDefaults(cfg StartupConfig) StartupConfig {
	if cfg.Reps <= 0 {
		cfg.Reps = 20
	}
	if cfg.Module == "" {
		cfg.Module, cfg.Version = StartupModule, StartupVersion
	}
	if cfg.Pattern == "" {
		cfg.Pattern = "Commit"
	}
	if cfg.Query == "" {
		cfg.Query = "retry a transaction that conflicts"
	}
	return cfg
}

// startupCommands are the commands measured, in the report's order.
func startupCommands(cfg StartupConfig) []startupCmd {
	p := cfg.Pattern
	return []startupCmd{
		{args: []string{"--version"}},
		{args: []string{"help"}},
		{args: []string{"grep", "-n", "-e", p}, git: []string{"grep", "-n", "-e", p}, ok: []int{1}},
		{args: []string{"grep", "-n", "-e", p, "HEAD"}, git: []string{"grep", "-n", "-e", p, "HEAD"}, ok: []int{1}},
		{args: []string{"log", "-S", p}, git: []string{"log", "--format=%H", "-S", p}, ok: []int{1}},
		{args: []string{"status"}},
		{args: []string{"search", "--no-index", "-k", "3", cfg.Query}, ok: []int{1}},
	}
}

// startupRepo returns the repository to measure in and its file count.
func startupRepo(ctx context.Context, r *runner, cfg StartupConfig, home string) (string, int, error) {
	if cfg.Repo != "" {
		out, err := r.git(ctx, cfg.Repo, "ls-files", "-z")
		if err != nil {
			return "", 0, fmt.Errorf("%w: start-up: %v", ErrConfig, err)
		}
		return cfg.Repo, countNul(out), nil
	}
	src, err := fetchModule(ctx, home, cfg.Module, cfg.Version)
	if err != nil {
		return "", 0, err
	}
	dir := filepath.Join(home, "repo")
	c, err := copySources(ctx, []source{{src, "", cfg.Module + "@" + cfg.Version}}, dir)
	if err != nil {
		return "", 0, err
	}
	if _, err := buildRepo(ctx, r, dir, c, 1, true); err != nil {
		return "", 0, err
	}
	return dir, len(c.Files), nil
}

func countNul(b []byte) int {
	n := 0
	for _, c := range b {
		if c == 0 {
			n++
		}
	}
	return n
}

// startupRow runs one command cfg.Reps times per build and git's, in
// turns, after one untimed run of each (the page cache holds the binary
// and the repository, as for a user's second command).
func startupRow(ctx context.Context, r *runner, dir string, cfg StartupConfig, c startupCmd) (StartupRow, error) {
	row := StartupRow{Command: "git bcindex " + joinArgs(c.args)}
	walls := make([][]float64, len(cfg.Bins)+1)
	cpus := make([][]float64, len(cfg.Bins)+1)
	for rep := -1; rep < cfg.Reps; rep++ {
		for i, bin := range cfg.Bins {
			p, err := r.run(ctx, dir, nil, c.ok, bin, c.args...)
			if err != nil {
				return row, fmt.Errorf("start-up: %w", err)
			}
			if rep >= 0 {
				walls[i] = append(walls[i], float64(p.Elapsed)/float64(time.Millisecond))
				cpus[i] = append(cpus[i], float64(p.CPU)/float64(time.Millisecond))
			}
		}
		if c.git != nil {
			p, err := r.run(ctx, dir, nil, c.ok, "git", c.git...)
			if err != nil {
				return row, fmt.Errorf("start-up: %w", err)
			}
			if rep >= 0 {
				k := len(cfg.Bins)
				walls[k] = append(walls[k], float64(p.Elapsed)/float64(time.Millisecond))
				cpus[k] = append(cpus[k], float64(p.CPU)/float64(time.Millisecond))
			}
		}
	}
	for i := range cfg.Bins {
		row.Runs = append(row.Runs, StartupMs{WallMs: median(walls[i]), CPUMs: median(cpus[i])})
	}
	if c.git != nil {
		k := len(cfg.Bins)
		row.GitCmd = "git " + joinArgs(c.git)
		row.Git = &StartupMs{WallMs: median(walls[k]), CPUMs: median(cpus[k])}
	}
	return row, nil
}

func joinArgs(a []string) string {
	s := ""
	for i, x := range a {
		if i > 0 {
			s += " "
		}
		s += x
	}
	return s
}
