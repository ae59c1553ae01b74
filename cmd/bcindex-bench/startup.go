package main

import (
	"context"
	"io"
	"os"

	"github.com/bcindex/bcindex/bench"
)

// runStartup runs the start-up suite of -startup: this checkout's build
// (or -bin) first, then sc.Bins (-startup-vs).
func runStartup(ctx context.Context, cfg bench.Config, sc bench.StartupConfig, asJSON, quiet bool, stdout, stderr io.Writer) int {
	work, err := os.MkdirTemp("", "bcindex-bench-")
	if err != nil {
		return runFailed(stderr, err)
	}
	defer os.RemoveAll(work)
	bin, err := bench.Binary(ctx, cfg, work)
	if err != nil {
		return runFailed(stderr, err)
	}
	sc.Bins = append([]string{bin}, sc.Bins...)
	if !quiet {
		sc.Log = stderr
	}
	rep, err := bench.RunStartup(ctx, sc)
	if err != nil {
		return runFailed(stderr, err)
	}
	return writeReport(stdout, stderr, asJSON, rep)
}
