package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/bcindex/bcindex/bench"
)

// runStartup runs the start-up suite of -startup: this checkout's build
// (or -bin) first, then sc.Bins (-startup-vs).
func runStartup(ctx context.Context, cfg bench.Config, sc bench.StartupConfig, asJSON, quiet bool, stdout, stderr io.Writer) int {
	work, err := os.MkdirTemp("", "bcindex-bench-")
	if err != nil {
		fmt.Fprintf(stderr, "error: %v\n", err)
		return 1
	}
	defer os.RemoveAll(work)
	bin, err := bench.Binary(ctx, cfg, work)
	if err != nil {
		fmt.Fprintf(stderr, "error: %v\n", err)
		return 1
	}
	sc.Bins = append([]string{bin}, sc.Bins...)
	if !quiet {
		sc.Log = stderr
	}
	rep, err := bench.RunStartup(ctx, sc)
	if err != nil {
		fmt.Fprintf(stderr, "error: %v\n", err)
		if errors.Is(err, bench.ErrConfig) {
			return 2
		}
		return 1
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		err = enc.Encode(rep)
	} else {
		err = rep.WriteText(stdout)
	}
	if err != nil {
		fmt.Fprintf(stderr, "error: write report: %v\n", err)
		return 1
	}
	return 0
}
