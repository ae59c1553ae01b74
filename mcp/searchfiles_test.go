package mcp

import (
	"strings"
	"testing"
)

// TestSearchFiles: files: true ranks files, each with its best chunks and
// their lines, the first with its snippet; it takes no offset.
func TestSearchFiles(t *testing.T) {
	f := newFixture(t)
	c := connect(t, f.repo)
	out, txt := ok[searchOut](t, c, "search", map[string]any{"query": "retry with backoff", "files": true, "k": 2})
	if len(out.Hits) != 0 || len(out.Files) == 0 || len(out.Files) > 2 {
		t.Fatalf("files answer: %d hits, %d files:\n%s", len(out.Hits), len(out.Files), txt)
	}
	seen := map[string]bool{}
	for _, fo := range out.Files {
		if seen[fo.Path] {
			t.Errorf("file %s listed twice", fo.Path)
		}
		seen[fo.Path] = true
		if len(fo.Hits) == 0 || len(fo.Lines) != len(fo.Hits) || fo.Hits[0].Snippet == "" || fo.Score != fo.Hits[0].Score {
			t.Errorf("file %+v", fo)
		}
		for i, h := range fo.Hits {
			if h.Path != fo.Path || fo.Lines[i] != [2]int{h.StartLine, h.EndLine} {
				t.Errorf("hit %d of %s: %s:%d-%d, lines %v", i, fo.Path, h.Path, h.StartLine, h.EndLine, fo.Lines[i])
			}
		}
	}
	if !strings.Contains(txt, "1. "+out.Files[0].Path) || !strings.Contains(txt, "files at") {
		t.Errorf("text answer:\n%s", txt)
	}
	if res := c.call(t, "search", map[string]any{"query": "retry", "files": true, "offset": 2}); !res.IsError {
		t.Error("files with an offset was answered")
	}
}
