package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/bcindex/bcindex/indexer"
)

// vectorsMissingLine says in one line that chunks lack the configured
// model's vectors (it was switched) and how they get them.
func vectorsMissingLine(missing, total int, model string) string {
	return fmt.Sprintf("%d of %d chunks have no vectors for model %s (switched?); the next search computes them, or run `git bcindex index`", missing, total, model)
}

// printCoverage prints the vector coverage of each model the index holds
// vectors of, the configured one first.
func printCoverage(w io.Writer, st *indexer.Status) {
	if st.Embeddable == 0 || len(st.VectorsByModel) == 0 {
		return
	}
	var parts []string
	for _, m := range st.VectorsByModel {
		name := m.Model
		if m.Model == st.ModelLabel {
			name += " (configured)"
			parts = append([]string{fmt.Sprintf("%s %d/%d", name, m.Vectors, st.Embeddable)}, parts...)
			continue
		}
		parts = append(parts, fmt.Sprintf("%s %d/%d", name, m.Vectors, st.Embeddable))
	}
	fmt.Fprintf(w, "vectors    %s\n", strings.Join(parts, "; "))
}
