package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/bcindex/bcindex/indexer"
)

// vectorsMissingLine says in one line that chunks lack the configured
// model's vectors and how they get them: the model was switched when the
// index holds another model's vectors; else they were never computed (grep
// and log -S index without them).
func vectorsMissingLine(st *indexer.Status) string {
	missing, total := st.Embeddable-st.Vectors, st.Embeddable
	why := "not computed yet"
	for _, m := range st.VectorsByModel {
		if m.Model != st.ModelLabel && m.Vectors > 0 {
			why = "the index holds another model's (" + m.Model + "): the model was switched"
			break
		}
	}
	return fmt.Sprintf("%d of %d chunks have no vectors for model %s (%s); the next search computes them, or run `git bcindex index`", missing, total, st.Model, why)
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
