package mcp

import (
	"fmt"
	"strings"
)

// spans writes line ranges "a-b, c-d".
func spans(lines [][2]int) string {
	out := make([]string, len(lines))
	for i, a := range lines {
		out[i] = fmt.Sprintf("%d-%d", a[0], a[1])
	}
	return strings.Join(out, ", ")
}

// A hit that misses costs an agent most: it reads the answer, finds
// nothing, and goes on searching. The files ranked just below the k hits
// often hold what the first ones missed, and naming one costs a few
// tokens, so an answer ends with a tail of further files from the same
// ranking, one line each: "path:a-b  (also c-d)", the lines of the file's
// best chunk and of its other chunks among the ranked ones.
// The structured result lists them as more.

// moreOut is one file of an answer's tail.
type moreOut struct {
	Path      string   `json:"path"`
	StartLine int      `json:"start_line"`
	EndLine   int      `json:"end_line"`
	Also      [][2]int `json:"also,omitempty" jsonschema:"the lines of the file's other chunks among the ranked ones"`
}

// tailMax is the ceiling of more.
const tailMax = 300

// tailLead opens the tail in the text.
const tailLead = "[further files, best first: path:lines of the best chunk  (also other chunks)]\n"

// renderTail is the tail's text: its lead, then a line per file.
func renderTail(more []moreOut) string {
	if len(more) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(tailLead)
	for _, m := range more {
		fmt.Fprintf(&b, "%s:%d-%d", m.Path, m.StartLine, m.EndLine)
		if len(m.Also) > 0 {
			b.WriteString("  (also " + spans(m.Also) + ")")
		}
		b.WriteString("\n")
	}
	return b.String()
}
