package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// TestLogPickaxe drives log -S and -G through the command line: the
// commits, their order, --first, --path, --json, and the errors.
func TestLogPickaxe(t *testing.T) {
	r := gittest.New(t)
	c1 := r.CommitAt("2024-01-01T00:00:00Z", "one", map[string]string{"store/repo.go": sample})
	c2 := r.CommitAt("2024-03-01T00:00:00Z", "two", map[string]string{"store/repo.go": openV2, "docs/notes.md": "OpenRepository\n"})
	r.Git("rm", "-q", "store/repo.go")
	c3 := r.CommitAt("2024-05-01T00:00:00Z", "three", map[string]string{"other/x.go": "package other\n"})

	code, out, errOut := runCLI(t, r.Dir, "log", "-S", "OpenRepository", "--json")
	if code != 0 {
		t.Fatalf("log -S: exit %d %s", code, errOut)
	}
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var m struct{ Commit string }
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("log -S --json line %q: %v", line, err)
		}
		got = append(got, m.Commit)
	}
	want := strings.Fields(r.Git("log", "--first-parent", "--no-renames", "-S", "OpenRepository", "--format=%H"))
	if strings.Join(got, " ") != strings.Join(want, " ") || len(want) < 2 {
		t.Errorf("log -S: %v, git log %v", got, want)
	}

	code, out, _ = runCLI(t, r.Dir, "log", "-S", "OpenRepository", "--first")
	if code != 0 || !strings.HasPrefix(out, c1[:10]+"  2024-01-01") || strings.Contains(out, c2[:10]) {
		t.Errorf("log -S --first: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, r.Dir, "log", "-G", "^func Open", "--reverse", "--path", "store/**")
	if code != 0 || strings.Index(out, c1[:10]) > strings.Index(out, c3[:10]) || strings.Contains(out, "notes.md") ||
		!strings.Contains(out, "-     4  func OpenRepository(path string) error {") {
		t.Errorf("log -G --reverse --path: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, r.Dir, "log", "-S", "OpenRepository", "--json", "--exclude", "store/**")
	if code != 0 || strings.Contains(out, "store/repo.go") || !strings.Contains(out, "docs/notes.md") || strings.Count(out, "\n") != 1 {
		t.Errorf("log -S --json --exclude: exit %d\n%s", code, out)
	}
	// bcindex's view (--json, --first, --path) says "nothing" with exit 1,
	// as search does; git log's arguments get git log's answer: exit 0.
	if code, _, _ = runCLI(t, r.Dir, "log", "-S", "NeverWritten", "--json"); code != 1 {
		t.Errorf("log -S --json with no commit: exit %d, want 1", code)
	}
	if code, out, _ = runCLI(t, r.Dir, "log", "-S", "NeverWritten"); code != 0 || out != "" {
		t.Errorf("log -S with no commit: exit %d %q, want 0 and nothing, as git log", code, out)
	}
	for _, bad := range [][]string{{"-G", "a(", "--json"}, {"-S", "x", "-G", "y", "--json"}, {"-S", "x", "QUERY", "--json"}, {"-S", "x", "--kind", "function"}} {
		code, _, errOut := runCLI(t, r.Dir, append([]string{"log"}, bad...)...)
		if code != 2 || !strings.Contains(errOut, "error:") {
			t.Errorf("log %q: exit %d, want 2 with an error; stderr %s", bad, code, errOut)
		}
	}
	// Without them, git's errors in git's words.
	for _, bad := range [][]string{{"-G", "a("}, {"-S", "x", "-G", "y"}, {"-S", "x", "QUERY"}} {
		code, _, errOut := runCLI(t, r.Dir, append([]string{"log"}, bad...)...)
		if code != 128 || !strings.HasPrefix(errOut, "fatal: ") {
			t.Errorf("log %q: exit %d, want git's 128 and its message; stderr %s", bad, code, errOut)
		}
	}
}
