package mcp

import (
	"context"
	"fmt"
	"strings"

	"github.com/bcindex/bcindex/search"
)

// A hit that misses costs an agent most: it reads the answer, finds
// nothing, and goes on searching. The files ranked just below the k hits
// often hold what the first ones missed, and naming one costs a few
// tokens, so an answer ends with a tail of further files from the same
// ranking, one line each: "path:a-b  (also c-d)", the lines of the file's
// best chunk and of its other chunks among the ranked ones.
//
// The hybrid ranking drops what too little evidence of any arm supports,
// so that a query matching nothing has no hits; for some questions that
// leaves a handful of files, none of them the answer. When the hybrid
// ranks fewer files than the answer lists, the text and the vector arms,
// each alone, fill the rest of the tail, their files taken in turn, under
// a line of their own. The structured result lists the tail as more,
// these files with the arm that ranked them.

// moreOut is one file of an answer's tail.
type moreOut struct {
	Path      string   `json:"path"`
	StartLine int      `json:"start_line"`
	EndLine   int      `json:"end_line"`
	Also      [][2]int `json:"also,omitempty" jsonschema:"the lines of the file's other chunks among the ranked ones"`
	Arm       string   `json:"arm,omitempty" jsonschema:"text or vector: the one arm that ranked the file, alone, where the hybrid ranking found too little evidence for it"`
}

// tailMax is the ceiling of more.
const tailMax = 300

// The lines that open the tail and its files from one arm alone.
const (
	tailLead = "[further files, best first: path:lines of the best chunk  (also other chunks)]\n"
	armsLead = "[weaker: files the words alone (text) or the meaning alone (vector) rank, in turn]\n"
)

// renderTail is the tail's text: a line per file, under their leads.
func renderTail(more []moreOut) string {
	var b strings.Builder
	for i, m := range more {
		switch {
		case i == 0 && m.Arm == "":
			b.WriteString(tailLead)
		case m.Arm != "" && (i == 0 || more[i-1].Arm == ""):
			b.WriteString(armsLead)
		}
		b.WriteString(tailLine(m))
	}
	return b.String()
}

// tailLine is one file of the tail.
func tailLine(m moreOut) string {
	line := fmt.Sprintf("%s:%d-%d", m.Path, m.StartLine, m.EndLine)
	if len(m.Also) > 0 {
		line += "  (also " + spans(m.Also) + ")"
	}
	return line + "\n"
}

// spans writes line ranges "a-b, c-d".
func spans(lines [][2]int) string {
	out := make([]string, len(lines))
	for i, a := range lines {
		out[i] = fmt.Sprintf("%d-%d", a[0], a[1])
	}
	return strings.Join(out, ", ")
}

// addTail appends m to out's tail if it fits the byte budget.
func (sh *shape) addTail(out *searchOut, m moreOut, left int) bool {
	size := len(tailLine(m))
	if sh.used+size > sh.bytes {
		out.Truncated = true
		out.Note = fmt.Sprintf("truncated: %d more files did not fit the %d-byte budget; lower more or max_lines, or raise max_bytes (ceiling %d)",
			left, sh.bytes, searchBytesMax)
		return false
	}
	sh.used += size
	out.More = append(out.More, m)
	return true
}

// armsTail fills out's tail up to files files in all with those the text
// and the vector arms rank alone, in turn, skipping the files listed.
func (sh *shape) armsTail(ctx context.Context, s search.Searcher, opts search.Options, out *searchOut, files int) error {
	listed := map[string]bool{}
	for _, h := range out.Hits {
		listed[h.Path] = true
	}
	for _, m := range out.More {
		listed[m.Path] = true
	}
	var lists [2][]moreOut
	for i, mode := range []string{search.ModeText, search.ModeVector} {
		o := opts
		o.Mode = mode
		res, err := s.Search(ctx, o.Parsed, o)
		if err != nil {
			return fmt.Errorf("%s arm alone: %w", mode, err)
		}
		hits, _ := byFile(res.Hits, 0, len(res.Hits))
		_, also := byFile(res.Hits[:min(len(res.Hits), sh.alsoDepth(0, files-sh.more))], 0, len(res.Hits))
		for _, h := range hits {
			lists[i] = append(lists[i], moreOut{Path: h.Path, StartLine: h.StartLine, EndLine: h.EndLine, Also: also[h.Path], Arm: mode})
		}
	}
	for i := 0; i < max(len(lists[0]), len(lists[1])); i++ {
		for _, l := range lists {
			if len(listed) >= files {
				return nil
			}
			if i >= len(l) || listed[l[i].Path] {
				continue
			}
			if !sh.addTail(out, l[i], files-len(listed)) {
				return nil
			}
			listed[l[i].Path] = true
		}
	}
	return nil
}
