package mcp

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Budgets. Every answer is capped so that one call cannot flood an agent's
// context: each cap has a default an agent can live with and a parameter to
// raise it up to a hard ceiling. A value above the ceiling is an error rather
// than silently clamped, so the agent learns the real limit.
const (
	searchK, searchKMax             = 10, 100
	searchContext, searchContextMax = 2, 20
	searchLines, searchLinesMax     = 12, 400
	searchBytes, searchBytesMax     = 24_000, 200_000
	chunkBytes, chunkBytesMax       = 32_000, 256_000
	parentBytes                     = 8_000 // parent text shown with a micro chunk
	relatedNames                    = 50    // sibling and child names listed with a chunk
	outlineChunks, outlineChunksMax = 300, 3000
	readLines, readLinesMax         = 500, 5000
	readBytes, readBytesMax         = 48_000, 256_000
	listEntries, listEntriesMax     = 300, 5000
	grepMatches, grepMatchesMax     = 100, 1000
	grepLineBytes                   = 400 // of a matching line's text; longer lines show a window around the match
)

// intArg applies a default to an optional argument and checks it against
// [1, ceiling]; 0 means "not given".
func intArg(name string, v, def, ceiling int) (int, error) {
	switch {
	case v == 0:
		return def, nil
	case v < 0:
		return 0, fmt.Errorf("%s must be positive (got %d)", name, v)
	case v > ceiling:
		return 0, fmt.Errorf("%s %d is above the ceiling %d", name, v, ceiling)
	}
	return v, nil
}

// optIntArg is intArg for arguments where 0 is meaningful.
func optIntArg(name string, v *int, def, ceiling int) (int, error) {
	switch {
	case v == nil:
		return def, nil
	case *v < 0:
		return 0, fmt.Errorf("%s must not be negative (got %d)", name, *v)
	case *v > ceiling:
		return 0, fmt.Errorf("%s %d is above the ceiling %d", name, *v, ceiling)
	}
	return *v, nil
}

// offsetArg checks a paging offset.
func offsetArg(v int) (int, error) {
	if v < 0 {
		return 0, fmt.Errorf("offset must not be negative (got %d)", v)
	}
	return v, nil
}

// clip shortens s to at most n bytes on a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// splitLines splits content into lines without their terminators; a final
// line without a newline counts, an empty trailing piece does not.
func splitLines(content []byte) []string {
	s := string(content)
	if s == "" {
		return nil
	}
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// numbered renders lines with cat -n style numbers, the first one numbered
// first, until the lines or maxBytes run out. It returns the text and how
// many lines it holds; a first line longer than the budget is clipped.
func numbered(lines []string, first, maxBytes int) (string, int) {
	var b strings.Builder
	for i, line := range lines {
		l := fmt.Sprintf("%6d\t%s\n", first+i, line)
		if b.Len()+len(l) > maxBytes {
			if i == 0 {
				b.WriteString(clip(l[:len(l)-1], maxBytes) + " [line clipped]\n")
				return b.String(), 1
			}
			return b.String(), i
		}
		b.WriteString(l)
	}
	return b.String(), len(lines)
}
