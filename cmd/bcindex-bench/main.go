// Command bcindex-bench measures bcindex on real code nobody here wrote:
// full and incremental indexing, query latency per mode in warm and cold
// processes, the vector scan against the memory bandwidth, git grep side by
// side, and the cost of indexing a real repository's history, and evaluates
// the project's performance targets.
//
// Usage, from the bcindex checkout:
//
//	go run ./cmd/bcindex-bench                 # Kubernetes + GOROOT/src, scaled up to ~1M chunks
//	go run ./cmd/bcindex-bench -quick          # smoke run on GOROOT/src/net
//	go run ./cmd/bcindex-bench -json > r.json  # the report as JSON
//	go run ./cmd/bcindex-bench -history-repo ~/src/project -history 1000
//	go run ./cmd/bcindex-bench -cold DIR -cold-vs OLD-BIN  # cold index of each repository in DIR
//	go run ./cmd/bcindex-bench -startup -startup-vs OLD-BIN # short commands' start-up, with git grep beside
//	go run ./cmd/bcindex-bench suite -dir bench/suites/dev -repos DIR   # search quality (bench/relevance)
//	go run ./cmd/bcindex-bench tokens -dir bench/suites/dev -repos DIR  # tokens an agent reads (bench/tokens)
//
// Build the harness with GOEXPERIMENT=simd to measure the SIMD vector
// kernels; the git-bcindex it builds inherits the environment.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/pprof"
	"strings"
	"syscall"
	"time"

	"github.com/bcindex/bcindex/bench"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "suite" {
		return runSuite(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "tokens" {
		return runTokens(args[1:], stdout, stderr)
	}
	fs := flag.NewFlagSet("bcindex-bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cfg bench.Config
	fs.StringVar(&cfg.Module, "module", bench.DefaultModule, "corpus: a Go module fetched with `go mod download` (\"\" for none)")
	fs.StringVar(&cfg.Version, "version", bench.DefaultVersion, "the module's version")
	fs.BoolVar(&cfg.GOROOTSrc, "goroot", true, "add GOROOT/src to the corpus (with Kubernetes: over 10k files)")
	fs.BoolVar(&cfg.Quick, "quick", false, "smoke run: GOROOT/src/net only, few repetitions, no scale-up unless -scale is given")
	fs.IntVar(&cfg.ScaleChunks, "scale", 1_000_000, "grow the repository to about this many chunks and measure again (0: skip)")
	fs.DurationVar(&cfg.ScaleBudget, "scale-budget", 15*time.Minute, "most time to spend indexing the scale-up")
	fs.IntVar(&cfg.Commits, "commits", 5, "commits the corpus arrives in")
	fs.Float64Var(&cfg.BranchFraction, "branch", 0.01, "fraction of files that differ on the second branch")
	fs.IntVar(&cfg.Reps, "reps", 20, "repetitions of each query in a warm process")
	fs.IntVar(&cfg.BranchReps, "branch-reps", 3, "times the second branch is indexed, each from the full index's state (the median counts)")
	fs.IntVar(&cfg.ColdReps, "cold-reps", 3, "repetitions of each query as a new process (and of git grep)")
	fs.BoolVar(&cfg.Repack, "repack", true, "pack the repository's objects, as a clone has them")
	fs.StringVar(&cfg.HistoryRepo, "history-repo", "", "repository whose first-parent history is indexed, in a clone (default: the one the harness runs in)")
	fs.IntVar(&cfg.HistoryCommits, "history", 0, "first-parent commits of -history-repo to index (0: all, at most 2000; 10 with -quick; -1: skip)")
	fs.StringVar(&cfg.Source, "src", "", "bcindex checkout to build git-bcindex from (default: the current module)")
	fs.StringVar(&cfg.Binary, "bin", "", "use this git-bcindex instead of building one")
	fs.StringVar(&cfg.WorkDir, "work", "", "work directory (default: a temporary directory)")
	fs.BoolVar(&cfg.Keep, "keep", false, "keep the temporary repository and index")
	coldDir := fs.String("cold", "", "only time a cold `git-bcindex index` of each repository in `dir` (a subdirectory each)")
	coldVs := fs.String("cold-vs", "", "with -cold, also run this git-bcindex, in turns with the one measured")
	coldReps := fs.Int("cold-index-reps", 3, "with -cold, runs of each build on each repository (the median counts)")
	startup := fs.Bool("startup", false, "only time short commands (--version, help, grep, log -S, status, a first search) as new processes on a small repository, with git grep beside")
	startupVs := fs.String("startup-vs", "", "with -startup, also run this git-bcindex, in turns with the one measured")
	startupRepo := fs.String("startup-repo", "", "with -startup, measure in this repository (default: "+bench.StartupModule+"@"+bench.StartupVersion+" committed into a new one)")
	startupReps := fs.Int("startup-reps", 20, "with -startup, runs of each command per build (the median counts)")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	jsonFile := fs.String("json-file", "", "also write the report as JSON to `file`")
	quiet := fs.Bool("q", false, "no progress on stderr")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of this process (warm queries, scan) to `file`")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "error: unexpected arguments %q\n", fs.Args())
		return 2
	}
	if cfg.Quick && !isSet(fs, "scale") {
		cfg.ScaleChunks = 0
	}
	if !*quiet {
		cfg.Log = stderr
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			fmt.Fprintf(stderr, "error: %v\n", err)
			return 2
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintf(stderr, "error: cpu profile: %v\n", err)
			return 2
		}
		defer pprof.StopCPUProfile()
	}
	if *startup {
		sc := bench.StartupConfig{Repo: *startupRepo, Reps: *startupReps}
		if *startupVs != "" {
			sc.Bins = []string{*startupVs}
		}
		return runStartup(ctx, cfg, sc, *asJSON, *quiet, stdout, stderr)
	}
	if *coldDir != "" {
		return runCold(ctx, cfg, *coldDir, *coldVs, *coldReps, *asJSON, *quiet, stdout, stderr)
	}
	rep, err := bench.Run(ctx, cfg)
	if err != nil {
		fmt.Fprintf(stderr, "error: %v\n", err)
		if errors.Is(err, bench.ErrConfig) {
			fmt.Fprintln(stderr, "hint: go run ./cmd/bcindex-bench -h")
			return 2
		}
		if ctx.Err() != nil {
			return 130
		}
		return 1
	}
	rep.Command = "bcindex-bench " + strings.Join(args, " ")
	if *jsonFile != "" {
		b, _ := json.MarshalIndent(rep, "", "  ")
		if err := os.WriteFile(*jsonFile, append(b, '\n'), 0o644); err != nil {
			fmt.Fprintf(stderr, "error: write report: %v\n", err)
			return 1
		}
	}
	return writeReport(stdout, stderr, *asJSON, rep)
}

func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// runCold runs the cold-index suite of -cold.
func runCold(ctx context.Context, cfg bench.Config, dir, vs string, reps int, asJSON, quiet bool, stdout, stderr io.Writer) int {
	work, err := os.MkdirTemp("", "bcindex-bench-")
	if err != nil {
		return runFailed(stderr, err)
	}
	defer os.RemoveAll(work)
	bin, err := bench.Binary(ctx, cfg, work)
	if err != nil {
		return runFailed(stderr, err)
	}
	cc := bench.ColdConfig{Dir: dir, Bins: []string{bin}, Reps: reps}
	if vs != "" {
		cc.Bins = append(cc.Bins, vs)
	}
	if !quiet {
		cc.Log = stderr
	}
	rep, err := bench.RunCold(ctx, cc)
	if err != nil {
		return runFailed(stderr, err)
	}
	return writeReport(stdout, stderr, asJSON, rep)
}
