package main

import (
	"strings"
	"testing"

	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// TestFlagForms: short flags take their value attached as in git and
// ripgrep (-k1, -C0); --exclude and a "!" glob leave paths out; -z ends
// paths with NUL; --offset pages; a wrong flag prints the error and the
// usage on stderr and nothing on stdout.
func TestFlagForms(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", map[string]string{
		"store/repo.go":      sample,
		"store/repo_test.go": strings.ReplaceAll(sample, "OpenRepository", "OpenRepositoryForTest"),
		"cmd/main.go":        strings.ReplaceAll(sample, "OpenRepository", "OpenRepositoryFromMain"),
	})
	if code, _, errOut := runCLI(t, r.Dir, "index"); code != 0 {
		t.Fatalf("index: %d %s", code, errOut)
	}
	files := func(args ...string) []string {
		t.Helper()
		code, out, errOut := runCLI(t, r.Dir, append([]string{"search", "--mode", "symbol", "-l"}, args...)...)
		if code != 0 && code != 1 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		return strings.Fields(out)
	}
	all := files("-k", "10", "OpenRepository")
	if len(all) != 3 {
		t.Fatalf("-k 10: %v", all)
	}
	if got := files("-k1", "OpenRepository"); len(got) != 1 || got[0] != all[0] {
		t.Errorf("-k1: %v, want [%s]", got, all[0])
	}
	if got := files("--offset", "1", "-k1", "OpenRepository"); len(got) != 1 || got[0] != all[1] {
		t.Errorf("--offset 1 -k1: %v, want [%s]", got, all[1])
	}
	for _, args := range [][]string{{"--path", "!*_test.go"}, {"--exclude", "*_test.go"}} {
		if got := files(append(args, "OpenRepository")...); len(got) != 2 || strings.Contains(strings.Join(got, " "), "_test.go") {
			t.Errorf("%v: %v", args, got)
		}
	}
	if got := files("--exclude", "*_test.go", "--exclude", "cmd", "OpenRepository"); len(got) != 1 || got[0] != "store/repo.go" {
		t.Errorf("two --exclude: %v", got)
	}
	code, out, errOut := runCLI(t, r.Dir, "search", "--mode", "symbol", "-C0", "-k1", "OpenRepository")
	if code != 0 || !strings.Contains(out, "    3 │") || strings.Contains(out, "    2  ") { // no line of context
		t.Errorf("-C0: exit %d\n%s%s", code, out, errOut)
	}
	code, out, _ = runCLI(t, r.Dir, "search", "--mode", "symbol", "-z", "-l", "OpenRepository")
	if code != 0 || out != strings.Join(all, "\x00")+"\x00" {
		t.Errorf("-z -l: %q", out)
	}
	code, out, _ = runCLI(t, r.Dir, "search", "--mode", "symbol", "-z", "-k1", "OpenRepository")
	if code != 0 || !strings.HasPrefix(out, all[0]+"\x003-") {
		t.Errorf("-z: %q", out)
	}
	code, out, errOut = runCLI(t, r.Dir, "search", "--bogus", "OpenRepository")
	if code != 2 || out != "" || errOut != "error: unknown option `bogus'\nhint: see `git bcindex search --help`\n" {
		t.Errorf("wrong flag: exit %d\nstdout: %s\nstderr: %s", code, out, errOut)
	}
	if code, _, errOut = runCLI(t, r.Dir, "search", "--exclude", "[", "x"); code != 2 || !strings.Contains(errOut, `invalid --exclude glob "["`) {
		t.Errorf("bad --exclude glob: exit %d: %s", code, errOut)
	}
}
