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
	asJSON := fs.Bool("json", false, "print the report as JSON")
	quiet := fs.Bool("q", false, "no progress on stderr")
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
	cfg.Repos = splitList(*repos)
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
