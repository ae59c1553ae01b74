package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

const sample = `package store

// OpenRepository opens the repository at path.
func OpenRepository(path string) error {
	return nil
}
`

// runCLI runs the command line in-process and returns exit code and output.
func runCLI(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(append([]string{"git-bcindex", "--dir", dir}, args...), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestSearchJSONLines(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", map[string]string{"store/repo.go": sample, "README.md": "# Store\n\nOpens repositories.\n"})
	code, out, errOut := runCLI(t, r.Dir, "index")
	if code != 0 || !strings.Contains(out, "blobs 2: 2 new") {
		t.Fatalf("index exit %d\nstdout: %s\nstderr: %s", code, out, errOut)
	}
	code, out, errOut = runCLI(t, r.Dir, "search", "--json", "openRepository")
	if code != 0 {
		t.Fatalf("search exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	fields := []string{"path", "start_line", "end_line", "name", "kind", "language", "score", "ref", "commit", "blob", "snippet", "breadcrumb", "chunk_id"}
	for _, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("line is not JSON: %q: %v", l, err)
		}
		for _, f := range fields {
			if _, ok := m[f]; !ok {
				t.Errorf("JSON hit lacks %q: %s", f, l)
			}
		}
	}
	var top map[string]any
	json.Unmarshal([]byte(lines[0]), &top)
	if top["name"] != "OpenRepository" || top["path"] != "store/repo.go" || top["start_line"] != float64(3) {
		t.Errorf("top hit = %v", top)
	}
}

func TestExitCodesAndErrors(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", map[string]string{"store/repo.go": sample})
	cases := []struct {
		name     string
		dir      string
		args     []string
		code     int
		inStderr []string
	}{
		{"no index yet, --no-index", r.Dir, []string{"search", "--no-index", "x"}, 2, []string{"no index", "git bcindex index"}},
		{"hits", r.Dir, []string{"search", "OpenRepository"}, 0, nil},
		{"no hits", r.Dir, []string{"search", "--mode", "symbol", "zzzqqqxxx"}, 1, nil},
		{"unknown ref", r.Dir, []string{"search", "--ref", "v9.9", "x"}, 2, []string{`"v9.9"`, "unknown revision"}},
		{"empty query", r.Dir, []string{"search", " "}, 2, []string{"empty query"}},
		{"bad mode", r.Dir, []string{"search", "--mode", "fuzzy", "x"}, 2, []string{"unknown search mode"}},
		{"not a repository", t.TempDir(), []string{"status"}, 2, []string{"not a git repository"}},
		{"status", r.Dir, []string{"status"}, 0, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, _, errOut := runCLI(t, c.dir, c.args...)
			if code != c.code {
				t.Fatalf("exit %d, want %d; stderr: %s", code, c.code, errOut)
			}
			for _, s := range c.inStderr {
				if !strings.Contains(errOut, s) {
					t.Errorf("stderr %q lacks %q", errOut, s)
				}
			}
		})
	}
}

func TestCorruptManifestIsRebuilt(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", map[string]string{"store/repo.go": sample})
	if code, _, errOut := runCLI(t, r.Dir, "index"); code != 0 {
		t.Fatal(errOut)
	}
	manifest := filepath.Join(r.Dir, ".git", "bcindex", "segments", "MANIFEST")
	if err := os.WriteFile(manifest, []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Without indexing, the search cannot heal it: it says what to run.
	code, _, errOut := runCLI(t, r.Dir, "search", "--no-index", "OpenRepository")
	if code != 2 || !strings.Contains(errOut, "corrupt") || !strings.Contains(errOut, "check --repair") {
		t.Fatalf("corrupt index, --no-index: exit %d, stderr %q", code, errOut)
	}
	// A search rebuilds it first, and says so in one line.
	code, out, errOut := runCLI(t, r.Dir, "search", "OpenRepository")
	if code != 0 || !strings.Contains(out, "OpenRepository") || !strings.Contains(errOut, "warning: the segment manifest was damaged") {
		t.Fatalf("search of a corrupt index: exit %d\n%s%s", code, out, errOut)
	}
	if code, out, errOut := runCLI(t, r.Dir, "check"); code != 0 {
		t.Fatalf("check after the rebuild: exit %d\n%s%s", code, out, errOut)
	}
}

// TestGitSubcommand builds the binary and runs it as `git bcindex`, the way
// users do, from a subdirectory.
func TestGitSubcommand(t *testing.T) {
	bin := filepath.Dir(buildBinary(t))
	r := gittest.New(t)
	r.Commit("init", map[string]string{"store/repo.go": sample})
	cmd := exec.Command("git", "bcindex", "search", "--json", "-k", "1", "open the repository")
	cmd.Dir = filepath.Join(r.Dir, "store")
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git bcindex search: %v", err)
	}
	var hit map[string]any
	if err := json.Unmarshal(out, &hit); err != nil || hit["name"] != "OpenRepository" {
		t.Fatalf("git bcindex search output %q (%v)", out, err)
	}
}

func TestSyntaxErrorsAreCountedAndListed(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", map[string]string{
		"ok.go":     sample,
		"minor.go":  "package p\n\nfunc Good() int { return 1 }\n\nfunc Bad( {\n\treturn\n}\n",
		"severe.py": "))))((((\n]]]] :: ;; ===\n",
	})
	code, out, errOut := runCLI(t, r.Dir, "index", "--json")
	if code != 0 {
		t.Fatalf("index: %s", errOut)
	}
	var sum map[string]any
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatal(err)
	}
	if sum["syntax_error_files"] != float64(2) {
		t.Errorf("syntax_error_files = %v, want 2 (summary %s)", sum["syntax_error_files"], out)
	}
	code, out, errOut = runCLI(t, r.Dir, "status", "--errors")
	if code != 0 {
		t.Fatalf("status --errors: %s", errOut)
	}
	if !strings.Contains(out, "minor.go\tminor") || !strings.Contains(out, "severe.py\tsevere") || strings.Contains(out, "ok.go") {
		t.Errorf("status --errors output:\n%s", out)
	}
}

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// buildBinary builds git-bcindex once per test run and returns its path.
func buildBinary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "bcindex-bin-")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "git-bcindex")
		if out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput(); err != nil {
			binErr = fmt.Errorf("build: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}
