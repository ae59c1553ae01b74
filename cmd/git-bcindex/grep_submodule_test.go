package main

import (
	"path/filepath"
	"testing"

	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// TestGrepSubmodulesAsGit: --recurse-submodules reads a checked-out
// submodule's files, changed ones included, where git does; with
// --untracked it is refused as git refuses it.
func TestGrepSubmodulesAsGit(t *testing.T) {
	sub := gittest.New(t)
	sub.Commit("sub", map[string]string{"f.txt": "x in sub\n", "d/g.txt": "x deep\n"})
	top := gittest.New(t)
	t.Setenv("HOME", top.Dir)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_PARAMETERS", "'protocol.file.allow'='always'")
	top.Commit("top", map[string]string{"a.txt": "x top\n", "sub-x.txt": "x after\n"})
	top.Git("submodule", "add", "-q", sub.Dir, "sub")
	top.Commit("add sub", nil)
	top.Write(map[string]string{"sub/f.txt": "x in sub\nx changed\n"})
	for _, c := range []struct {
		dir  string
		args []string
	}{
		{"", []string{"--recurse-submodules", "x"}}, {"", []string{"--recurse-submodules", "-n", "x"}},
		{"", []string{"--recurse-submodules", "-c", "x", "--", "sub/d"}}, {"", []string{"--recurse-submodules", "-l", "x", "--", ":!sub"}},
		{"", []string{"--recurse-submodules", "--untracked", "x"}}, {"sub", []string{"--recurse-submodules", "-n", "x"}},
		{"", []string{"-c", "x"}},
	} {
		dir := filepath.Join(top.Dir, c.dir)
		wantOut, wantErr, wantCode := gitGrepRun(t, dir, c.args)
		code, out, errOut := runCLI(t, dir, append([]string{"grep"}, c.args...)...)
		if code != wantCode || out != wantOut {
			t.Errorf("%s: grep %q: exit %d, git's %d\n%q\ngit grep:\n%q\n%s%s", c.dir, c.args, code, wantCode, out, wantOut, errOut, wantErr)
		}
	}
}
