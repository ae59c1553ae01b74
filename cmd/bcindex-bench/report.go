package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/bcindex/bcindex/bench"
)

// textReport is a report that prints itself as a table.
type textReport interface {
	WriteText(w io.Writer) error
}

// runFailed prints a run's error and returns its exit code: 2 for a bad
// configuration, 1 otherwise.
func runFailed(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "error: %v\n", err)
	if errors.Is(err, bench.ErrConfig) {
		return 2
	}
	return 1
}

// writeReport prints rep as indented JSON or as its table and returns the
// exit code.
func writeReport(stdout, stderr io.Writer, asJSON bool, rep textReport) int {
	var err error
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
