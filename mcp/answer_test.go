package mcp

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// TestSearchAnswerShape: by default a hit is a file, at its best chunk,
// in one line ("N. path:a-b  breadcrumb  kind  (also c-d)"), the first two
// carry their first lines of code without line numbers, and the text has
// no scores or chunk IDs (the structured result keeps them); verbose
// gives the fuller form, chunk by chunk.
func TestSearchAnswerShape(t *testing.T) {
	f := newFixture(t)
	c := connect(t, f.repo)
	out, txt := ok[searchOut](t, c, "search", map[string]any{"query": "retry with backoff"})
	if len(out.Hits) < 4 {
		t.Fatalf("%d hits:\n%s", len(out.Hits), txt)
	}
	header := regexp.MustCompile(`^\d+\. \S+:\d+-\d+  .*\S$`)
	tailRe := regexp.MustCompile(`^[^\s\[]\S*:\d+-\d+(  \(also \d+-\d+(, \d+-\d+)*\))?$`)
	if len(out.Hits) > compactK {
		t.Errorf("%d hits, more than the default %d", len(out.Hits), compactK)
	}
	headers, code, tail := 0, 0, 0
	for _, line := range strings.Split(strings.TrimSpace(txt), "\n") {
		switch {
		case header.MatchString(line):
			headers++
		case tailRe.MatchString(line):
			tail++
		case strings.HasPrefix(line, "   "):
			code++
			if regexp.MustCompile(`^\s+\d+\t`).MatchString(line) {
				t.Errorf("numbered line in the compact text: %q", line)
			}
		case strings.HasPrefix(line, "["):
		default:
			t.Errorf("line neither a header, code nor a note: %q", line)
		}
	}
	if headers != len(out.Hits) || code == 0 || code > 2*(compactLines+1) || tail != len(out.More) {
		t.Errorf("%d headers for %d hits, %d lines of code, %d tail lines for %d files:\n%s", headers, len(out.Hits), code, tail, len(out.More), txt)
	}
	if strings.Contains(txt, "chunk_id") || strings.Contains(txt, "score") || strings.Contains(txt, out.Hits[0].ChunkID) {
		t.Errorf("scores or chunk IDs in the compact text:\n%s", txt)
	}
	withCode, files, also := 0, map[string]bool{}, 0
	for _, h := range out.Hits {
		if h.ChunkID == "" || h.Blob == "" {
			t.Errorf("structured hit without its provenance: %+v", h)
		}
		if h.Snippet != "" {
			withCode++
		}
		if files[h.Path] {
			t.Errorf("%s is two hits", h.Path)
		}
		files[h.Path] = true
		for _, a := range h.Also {
			also++
			if a[0] < 1 || a[1] < a[0] || !strings.Contains(txt, fmt.Sprintf("%d-%d", a[0], a[1])) {
				t.Errorf("%s: other chunk %v not in the text", h.Path, a)
			}
		}
	}
	if also == 0 || !strings.Contains(txt, "  (also ") {
		t.Errorf("no file shows its other chunks:\n%s", txt)
	}
	if withCode != 2 || out.Hits[0].Snippet == "" {
		t.Errorf("%d hits with code, want the first two files':\n%s", withCode, txt)
	}
	if !strings.Contains(txt, "read_file") {
		t.Errorf("the answer does not say how to read a hit whole:\n%s", txt)
	}

	// snippets and max_lines shape it; a tight byte budget counts the text.
	_, none := ok[searchOut](t, c, "search", map[string]any{"query": "retry with backoff", "snippets": 0})
	if strings.Contains(none, "\n   ") {
		t.Errorf("snippets=0 shows code:\n%s", none)
	}
	cut, cutTxt := ok[searchOut](t, c, "search", map[string]any{"query": "retry with backoff", "max_bytes": 200})
	if !cut.Truncated || len(cut.Hits) == 0 || len(cut.Hits) >= len(out.Hits) || !strings.Contains(cutTxt, "offset=") {
		t.Errorf("max_bytes 200: %d hits, truncated %v:\n%s", len(cut.Hits), cut.Truncated, cutTxt)
	}

	if v, _ := ok[searchOut](t, c, "search", map[string]any{"query": "retry with backoff", "verbose": true}); len(v.More) != 0 {
		t.Errorf("verbose has a tail: %+v", v.More)
	}
	v, vtxt := ok[searchOut](t, c, "search", map[string]any{"query": "retry with backoff", "verbose": true})
	if len(v.Hits) > searchK || !strings.Contains(vtxt, "chunk_id "+v.Hits[0].ChunkID) || !regexp.MustCompile(`(?m)^\s+\d+\t`).MatchString(vtxt) {
		t.Errorf("verbose:\n%s", vtxt)
	}
}

// TestShowsSignature: the signature line is left out when the code shown
// starts with it.
func TestShowsSignature(t *testing.T) {
	code := []string{"// Retry calls fn.", "func Retry(fn func() error,", "\tattempts int) error {"}
	if !showsSignature(code, "func Retry(fn func() error, attempts int) error") {
		t.Error("a signature over two lines, its first shown, counts as shown")
	}
	if showsSignature(code[:1], "func Retry(fn func() error, attempts int) error") {
		t.Error("a doc comment alone does not show the signature")
	}
}
