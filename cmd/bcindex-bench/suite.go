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
	"strings"
	"syscall"

	"github.com/bcindex/bcindex/bench/relevance"
	"github.com/bcindex/bcindex/embed"
)

// runSuite is `bcindex-bench suite`: search quality on a code-search
// suite in semble's shape (bench/relevance).
func runSuite(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bcindex-bench suite", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cfg relevance.Config
	fs.StringVar(&cfg.Suite, "dir", "bench/suites/dev", "suite directory: repos.json and annotations/<name>.json")
	fs.StringVar(&cfg.ReposDir, "repos", "", "directory of the repositories by name (a git dir, a work tree or a symlink); others are cloned from their URL")
	fs.StringVar(&cfg.Work, "work", "", "directory for the built trees and their indexes, kept for the next run (default: a temporary one)")
	fs.BoolVar(&cfg.Reindex, "reindex", false, "index every tree again even where -work holds an index (cold index times)")
	modes := fs.String("modes", strings.Join(relevance.Modes, ","), "modes to ask: hybrid, files (search --files, each file's best chunk), symbol, text, vector, bm25 (plain BM25 over the chunks)")
	repos := fs.String("repo", "", "comma-separated repositories to run (default: all)")
	fs.IntVar(&cfg.LatencyReps, "reps", 3, "times each hybrid query runs for its latency (the median counts)")
	fs.BoolVar(&cfg.PerQuery, "per-query", false, "keep every query's ranks and hits in the JSON report (never for a held-out suite)")
	fs.StringVar(&cfg.Reference, "reference", "", "another system's per-repository figures (semble's results JSON), shown beside the hybrid")
	var subsets subsetFlag
	fs.Var(&subsets, "subset", "NAME=repo1,repo2: also report this group of repositories apart (repeatable)")
	aggregates := fs.Bool("aggregates", false, "report aggregates only: no per-repository rows or progress lines (a held-out suite)")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	jsonFile := fs.String("json-file", "", "also write the report as JSON to `file`")
	quiet := fs.Bool("q", false, "no progress on stderr")
	model := fs.String("model", "", "search with this static model file (a candidate from bcindex-train) instead of the built-in model; its ID must be its own")
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
	if *model != "" {
		data, err := os.ReadFile(*model)
		if err != nil {
			fmt.Fprintf(stderr, "error: read the model: %v\n", err)
			return 1
		}
		if cfg.Embedder, err = embed.LoadStatic(data); err != nil {
			fmt.Fprintf(stderr, "error: load the model %s: %v (a model file written by bcindex-train train)\n", *model, err)
			return 1
		}
		if cfg.Embedder.ID() == embed.BuiltinID {
			// Vectors are kept by model ID: the built-in model's would be
			// read as the candidate's.
			fmt.Fprintf(stderr, "error: the model %s has the built-in model's ID %s: train it with an -id of its own\n", *model, embed.BuiltinID)
			return 2
		}
	}
	cfg.Modes = splitList(*modes)
	cfg.Repos = splitList(*repos)
	cfg.Subsets = subsets
	if !*quiet && !*aggregates {
		cfg.Log = stderr
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rep, err := relevance.Run(ctx, cfg)
	if err != nil {
		fmt.Fprintf(stderr, "error: %v\n", err)
		if ctx.Err() != nil {
			return 130
		}
		return 1
	}
	rep.Command = "bcindex-bench suite " + strings.Join(args, " ")
	rep.Load = loadAverage()
	if *aggregates {
		for i := range rep.Repos {
			rep.Repos[i].PerQuery = nil
		}
	}
	if *jsonFile != "" {
		b, _ := json.MarshalIndent(rep, "", "  ")
		if err := os.WriteFile(*jsonFile, append(b, '\n'), 0o644); err != nil {
			fmt.Fprintf(stderr, "error: write report: %v\n", err)
			return 1
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		err = enc.Encode(rep)
	} else {
		if *aggregates {
			rep.Repos = nil
		}
		err = rep.WriteText(stdout)
	}
	if err != nil {
		fmt.Fprintf(stderr, "error: write report: %v\n", err)
		return 1
	}
	return 0
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// subsetFlag collects -subset NAME=a,b flags.
type subsetFlag map[string][]string

func (s *subsetFlag) String() string { return "" }

func (s *subsetFlag) Set(v string) error {
	name, list, ok := strings.Cut(v, "=")
	if !ok || name == "" || list == "" {
		return fmt.Errorf("want NAME=repo1,repo2, got %q", v)
	}
	if *s == nil {
		*s = subsetFlag{}
	}
	(*s)[name] = splitList(list)
	return nil
}

// loadAverage is /proc/loadavg's first three fields, where there is one.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}
