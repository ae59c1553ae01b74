package exact

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestExcerpt(t *testing.T) {
	long := strings.Repeat("é", 300_000) + "NEEDLE" + strings.Repeat("x", 300_000)
	at := strings.Index(long, "NEEDLE")
	tests := []struct {
		name, line string
		spans      [][2]int
		mark       string
		want       string // the whole text, for short lines
	}{
		{"short", "a needle here", [][2]int{{2, 8}}, "needle", "a needle here"},
		{"crlf", "needle\r", [][2]int{{0, 6}}, "needle", "needle"},
		{"invalid utf-8", "\xff\xfeneedle\xff", [][2]int{{2, 8}}, "needle", "\uFFFDneedle\uFFFD"},
		{"long line", long, [][2]int{{at, at + 6}}, "NEEDLE", ""},
		{"match at the end", strings.Repeat("y", 1000) + "END", [][2]int{{1000, 1003}}, "END", ""},
	}
	for _, tt := range tests {
		text, spans := Excerpt([]byte(tt.line), tt.spans, 400)
		if len(spans) != 1 {
			t.Errorf("%s: spans %v", tt.name, spans)
			continue
		}
		marked := text[spans[0][0]:spans[0][1]]
		if tt.want != "" && text != tt.want || marked != tt.mark || len(text) > 400+2*len("…") {
			t.Errorf("%s: %q (%d bytes) marked %q, want %q", tt.name, text[:min(len(text), 80)], len(text), marked, tt.want)
		}
		if !utf8.ValidString(text) {
			t.Errorf("%s: invalid UTF-8 in %q", tt.name, text[:min(len(text), 80)])
		}
	}
}
