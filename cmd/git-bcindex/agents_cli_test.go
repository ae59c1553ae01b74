package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// TestAgentsUserScope: install --user creates the agents' directories in
// an empty home, uninstall --user leaves the home as empty as it was, and
// status --user lists the user files only.
func TestAgentsUserScope(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", map[string]string{"a.go": "package a\n"})
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("CODEX_HOME", "")
	agentsArgs := []string{"--user", "--agent", "cursor", "--agent", "vscode", "--agent", "codex"}
	if code, out, errOut := runCLI(t, r.Dir, append([]string{"agents", "install"}, agentsArgs...)...); code != 0 {
		t.Fatalf("install exit %d\n%s%s", code, out, errOut)
	}
	for _, p := range []string{".cursor/mcp.json", ".config/Code/User/mcp.json", ".codex/config.toml"} {
		if _, err := os.Stat(filepath.Join(home, p)); err != nil {
			t.Errorf("install --user: %v", err)
		}
	}
	code, out, errOut := runCLI(t, r.Dir, "agents", "status", "--user")
	if code != 0 {
		t.Fatalf("status --user exit %d\n%s%s", code, out, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	installed := 0
	for _, l := range lines {
		f := strings.Fields(l)
		if len(f) < 2 || f[1] != "user" {
			t.Errorf("status --user lists a line that is not a user file: %q", l)
		}
		if strings.Contains(l, " installed") && !strings.Contains(l, "not installed") {
			installed++
		}
	}
	if installed != 3 {
		t.Errorf("status --user: %d files installed, want 3:\n%s", installed, out)
	}
	if code, out, errOut := runCLI(t, r.Dir, append([]string{"agents", "uninstall"}, agentsArgs...)...); code != 0 {
		t.Fatalf("uninstall exit %d\n%s%s", code, out, errOut)
	}
	var left []string
	filepath.WalkDir(home, func(p string, d os.DirEntry, err error) error {
		if p != home {
			left = append(left, p)
		}
		return err
	})
	if len(left) != 0 {
		t.Errorf("uninstall --user left in an empty home: %v", left)
	}
}
