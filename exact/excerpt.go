package exact

import (
	"strings"
	"unicode/utf8"
)

// Excerpt renders a matching line for display: at most limit bytes of it
// (a window starting a little before the first match, cut ends marked
// "…", so that a minified file's 5 MB line costs no more than any other),
// invalid UTF-8 replaced by U+FFFD (JSON and HTML would mangle it anyway),
// and a CRLF file's '\r' dropped. spans are the line's match spans; the
// returned spans are byte offsets in the returned text, so they stay
// right after all that.
func Excerpt(line []byte, spans [][2]int, limit int) (string, [][2]int) {
	lo, hi := 0, len(line)
	if hi > limit {
		if len(spans) > 0 {
			lo = max(0, min(spans[0][0]-limit/4, len(line)-limit))
		}
		hi = runeStart(line, lo+limit)
		lo = runeStart(line, lo)
	}
	if hi == len(line) && hi > lo && line[hi-1] == '\r' && (len(spans) == 0 || spans[len(spans)-1][1] < hi) {
		hi--
	}
	var b strings.Builder
	var out [][2]int
	if lo > 0 {
		b.WriteString("…")
	}
	at := lo
	for _, s := range spans {
		from, to := max(s[0], at), min(s[1], hi)
		if from >= to {
			continue
		}
		b.WriteString(validText(line[at:from]))
		start := b.Len()
		b.WriteString(validText(line[from:to]))
		out = append(out, [2]int{start, b.Len()})
		at = to
	}
	b.WriteString(validText(line[at:hi]))
	if hi < len(line) && !(hi == len(line)-1 && line[hi] == '\r') {
		b.WriteString("…")
	}
	return b.String(), out
}

// runeStart moves i back to the start of the rune it falls in.
func runeStart(b []byte, i int) int {
	for i > 0 && i < len(b) && !utf8.RuneStart(b[i]) {
		i--
	}
	return i
}

func validText(b []byte) string {
	return strings.ToValidUTF8(string(b), "\uFFFD")
}
