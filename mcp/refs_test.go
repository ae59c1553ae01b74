package mcp

import (
	"strings"
	"testing"
)

// TestSearchSeveralRevisions: the search tool takes a list of revisions and
// globs, and each hit names the revisions holding its content.
func TestSearchSeveralRevisions(t *testing.T) {
	f := newFixture(t)
	c := connect(t, f.repo)
	names := func(h hitOut) string {
		var ns []string
		for _, r := range h.Refs {
			if r.Commit == "" || r.Path == "" || r.StartLine == 0 {
				t.Errorf("ref without provenance: %+v", r)
			}
			ns = append(ns, r.Name)
		}
		return strings.Join(ns, ",")
	}
	// Only on main: the glob finds tag v1 too, but the hit names main alone.
	out, txt := ok[searchOut](t, c, "search", map[string]any{"query": "RetryWithBackoff", "mode": "symbol", "k": 1, "revs": []string{"main", "v*"}})
	if len(out.Revisions) != 2 || out.Revisions[0].Name != "main" || out.Revisions[1].Name != "v1" {
		t.Fatalf("revisions = %+v, want main and v1", out.Revisions)
	}
	if len(out.Hits) != 1 || out.Hits[0].Name != "RetryWithBackoff" || names(out.Hits[0]) != "main" {
		t.Fatalf("RetryWithBackoff over main and v*: %s", txt)
	}
	if !strings.Contains(txt, "   in main\n") {
		t.Errorf("text answer does not name the revisions:\n%s", txt)
	}
	// Unchanged since v1: one hit naming both, however many refs hold it.
	out, txt = ok[searchOut](t, c, "search", map[string]any{"query": "parse_config_file", "mode": "symbol", "k": 1, "rev": "HEAD", "revs": []string{"v1"}, "all_branches": true})
	if len(out.Hits) != 1 || names(out.Hits[0]) != "HEAD,v1,main" {
		t.Fatalf("parse_config_file over HEAD, v1 and every branch: %s", txt)
	}
	// One revision: the hit still carries its one ref.
	out, _ = ok[searchOut](t, c, "search", map[string]any{"query": "Retry", "mode": "symbol", "k": 1, "rev": "v1"})
	if len(out.Hits) != 1 || names(out.Hits[0]) != "v1" || out.Revisions != nil {
		t.Fatalf("one revision: %+v", out)
	}
}
