package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/internal/gittest"
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
