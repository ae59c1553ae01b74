package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// TestSearchReflogRevision finds a function that exists only on a branch
// through HEAD@{1} and @{-1} right after switching back from it, and checks
// that the hits name the reflog entry's commit, not HEAD's.
func TestSearchReflogRevision(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", map[string]string{"store/repo.go": sample})
	r.Git("checkout", "-q", "-b", "feature")
	featureOnly := "package store\n\n// ReconcileLedgerEntries balances the ledger.\nfunc ReconcileLedgerEntries() int {\n\treturn 0\n}\n"
	feature := r.Commit("feature", map[string]string{"store/ledger.go": featureOnly})
	r.Git("checkout", "-q", "main")
	head := r.Git("rev-parse", "HEAD")

	if code, out, _ := runCLI(t, r.Dir, "search", "--mode", "symbol", "ReconcileLedgerEntries"); code != 1 || out != "" {
		t.Fatalf("HEAD should not have the feature's function: exit %d\n%s", code, out)
	}
	for _, rev := range []string{"HEAD@{1}", "@{-1}"} {
		code, out, errOut := runCLI(t, r.Dir, "search", "--json", "--ref", rev, "ReconcileLedgerEntries")
		if code != 0 {
			t.Fatalf("--ref %s: exit %d: %s", rev, code, errOut)
		}
		var hit struct{ Name, Path, Ref, Commit string }
		if err := json.Unmarshal([]byte(strings.SplitN(out, "\n", 2)[0]), &hit); err != nil {
			t.Fatalf("--ref %s: %v\n%s", rev, err, out)
		}
		if hit.Name != "ReconcileLedgerEntries" || hit.Path != "store/ledger.go" || hit.Commit != feature || hit.Ref != rev {
			t.Errorf("--ref %s: top hit %+v, want ReconcileLedgerEntries in store/ledger.go at %s (HEAD is %s)", rev, hit, feature, head)
		}
	}
}

// TestRevisionRefusals checks that what is not a commit, or looks like an
// option, is refused with exit 2 and an error naming it, before any work.
func TestRevisionRefusals(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", map[string]string{"store/repo.go": sample})
	for rev, want := range map[string]string{
		"HEAD:store/repo.go": "names a blob, not a commit",
		"HEAD:store":         "names a tree, not a commit",
		"--output=x":         `cannot start with "-"`,
		"HEAD@{5}":           "only has 1 entries",
	} {
		code, out, errOut := runCLI(t, r.Dir, "search", "--ref="+rev, "OpenRepository")
		if code != 2 || out != "" || !strings.Contains(errOut, want) || !strings.Contains(errOut, rev) {
			t.Errorf("--ref %s: exit %d, stdout %q, stderr %q; want exit 2 and %q", rev, code, out, errOut, want)
		}
	}
}

// TestHooksInstallRefusalSpeaksTheHooksLanguage: a Python hook is offered
// Python lines, not shell ones, and is left untouched.
func TestHooksInstallRefusalSpeaksTheHooksLanguage(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", map[string]string{"store/repo.go": sample})
	hook := filepath.Join(r.Dir, ".git", "hooks", "post-commit")
	py := "#!/usr/bin/env python3\nprint('checked')\n"
	if err := os.WriteFile(hook, []byte(py), 0o755); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, r.Dir, "hooks", "install")
	msg := out + errOut
	if code == 0 || !strings.Contains(msg, "add these Python lines") || !strings.Contains(msg, "_subprocess.Popen") || strings.Contains(msg, `post-commit "$@"`) {
		t.Errorf("hooks install with a Python hook: exit %d\n%s", code, msg)
	}
	if b, _ := os.ReadFile(hook); string(b) != py {
		t.Errorf("the Python hook was modified:\n%s", b)
	}
}
