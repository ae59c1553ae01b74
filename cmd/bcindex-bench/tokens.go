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
	"strconv"
	"syscall"

	"github.com/bcindex/bcindex/bench/tokens"
)

// runTokens is `bcindex-bench tokens`: what an agent pays in tokens to
// reach the answer, with the MCP search tool and with grep-and-read, on a
// suite in semble's shape (bench/tokens).
func runTokens(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bcindex-bench tokens", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cfg tokens.Config
	fs.StringVar(&cfg.Suite, "dir", "bench/suites/dev", "suite directory: repos.json and annotations/<name>.json")
	fs.StringVar(&cfg.ReposDir, "repos", "", "directory of the repositories by name (a git dir, a work tree or a symlink); others are cloned from their URL")
	fs.StringVar(&cfg.Work, "work", "", "directory for the built trees and their indexes, shared with `bcindex-bench suite` (default: a temporary one)")
	repos := fs.String("repo", "", "comma-separated repositories to run (default: all)")
	ks := fs.String("k", "", "comma-separated k of the search tool's default answer to measure, each a method (default: the tool's default k)")
	mores := fs.String("more", "", "comma-separated lengths of the answer's tail of further files to measure, with each k (default: the tool's default)")
	baselines := fs.Bool("baselines", true, "measure the verbose answer and grep-and-read beside the default answer")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	quiet := fs.Bool("q", false, "no progress on stderr")
	err := fs.Parse(args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "error: unexpected arguments %q\n", fs.Args())
		return 2
	}
	cfg.Repos = splitList(*repos)
	if cfg.Methods, err = tokenMethods(*ks, *mores, *baselines); err != nil {
		fmt.Fprintf(stderr, "error: %v\n", err)
		return 2
	}
	if !*quiet {
		cfg.Log = stderr
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rep, err := tokens.Run(ctx, cfg)
	if err != nil {
		fmt.Fprintf(stderr, "error: %v\n", err)
		if ctx.Err() != nil {
			return 130
		}
		return 1
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			fmt.Fprintf(stderr, "error: write report: %v\n", err)
			return 1
		}
		return 0
	}
	rep.Print(stdout)
	return 0
}

// tokenMethods are the methods of a run: the default answer at each k
// and tail length asked for, between the verbose answer and the
// baseline when baselines is set.
func tokenMethods(ks, mores string, baselines bool) ([]tokens.Method, error) {
	kv, err := positiveList("k", ks, 1)
	if err != nil {
		return nil, err
	}
	mv, err := positiveList("more", mores, 0)
	if err != nil {
		return nil, err
	}
	var out []tokens.Method
	if baselines {
		out = append(out, tokens.Verbose)
	}
	if len(kv) == 0 {
		kv = []int{0}
	}
	for _, k := range kv {
		if len(mv) == 0 {
			out = append(out, tokens.Search(k, nil))
		}
		for _, m := range mv {
			out = append(out, tokens.Search(k, &m))
		}
	}
	if baselines {
		out = append(out, tokens.GrepRead)
	}
	return out, nil
}

// positiveList parses a comma-separated list of integers of at least least.
func positiveList(name, s string, least int) ([]int, error) {
	var out []int
	for _, f := range splitList(s) {
		n, err := strconv.Atoi(f)
		if err != nil || n < least {
			return nil, fmt.Errorf("-%s: %q is not an integer of at least %d", name, f, least)
		}
		out = append(out, n)
	}
	return out, nil
}
