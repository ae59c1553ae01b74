package mcp

import (
	"strings"
	"testing"
)

// TestHistory traces strings through the fixture's two commits: one
// introduced by v2, one there since v1, one never written; and the
// arguments an agent may get wrong.
func TestHistory(t *testing.T) {
	f := newFixture(t)
	c := connect(t, f.repo)
	out, txt := ok[historyOut](t, c, "history", map[string]any{"pattern": "RetryWithBackoff"})
	if len(out.Commits) != 1 || out.Commits[0].Commit != f.head || out.Searched != 2 ||
		!strings.Contains(txt, "net/retry.go (0 -> ") || !strings.Contains(txt, "RetryWithBackoff") {
		t.Errorf("history RetryWithBackoff: %+v\n%s", out, txt)
	}
	// "func Retry(" is in v1 and renamed in v2: both commits, oldest first.
	out, _ = ok[historyOut](t, c, "history", map[string]any{"pattern": `^func Retry\(`, "regex": true, "lines": true, "oldest": true})
	if len(out.Commits) != 2 || out.Commits[0].Commit != f.v1 || out.Commits[1].Commit != f.head {
		t.Errorf("history -G oldest: %+v", out.Commits)
	}
	out, _ = ok[historyOut](t, c, "history", map[string]any{"pattern": "retrywithbackoff", "ignore_case": true, "path": "py/**"})
	if len(out.Commits) != 0 {
		t.Errorf("history with path py/**: %+v", out.Commits)
	}
	out, txt = ok[historyOut](t, c, "history", map[string]any{"pattern": "NeverWritten", "rev": "v1"})
	if len(out.Commits) != 0 || out.Commit != f.v1 || !strings.Contains(txt, "No commit among the 1 first-parent commits of v1") {
		t.Errorf("history NeverWritten at v1: %+v\n%s", out, txt)
	}
	for _, bad := range []map[string]any{
		{"pattern": ""},
		{"pattern": "a(", "regex": true},
		{"pattern": "x", "max_commits": 5000},
		{"pattern": "x", "path": "[a"},
		{"pattern": "x", "rev": "no-such-branch"},
	} {
		if res := c.call(t, "history", bad); !res.IsError || resultText(res) == "" {
			t.Errorf("history %v: want a tool error, got %s", bad, resultText(res))
		}
	}
}
