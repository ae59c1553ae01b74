package bench

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// TestStartup runs the start-up suite with one run per command on a small
// repository, the same build twice as a before and an after, and checks
// what the report holds; it asserts no timing.
func TestStartup(t *testing.T) {
	if testing.Short() {
		t.Skip("builds git-bcindex")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	r := gittest.New(t)
	r.Commit("first", map[string]string{
		"txn.go":  "package db\n\n// Commit retries a transaction that conflicts.\nfunc Commit() error { return nil }\n",
		"util.py": "def add(a, b):\n    return a + b\n",
	})
	bin, err := Binary(ctx, Config{}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	rep, err := RunStartup(ctx, StartupConfig{Bins: []string{bin, bin}, Reps: 1, Repo: r.Dir, Log: &log})
	if err != nil {
		t.Fatalf("RunStartup: %v\n%s", err, log.String())
	}
	if rep.Files != 2 || len(rep.Rows) != len(startupCommands(startupDefaults(StartupConfig{}))) {
		t.Fatalf("files %d, rows %+v", rep.Files, rep.Rows)
	}
	gits := 0
	for _, row := range rep.Rows {
		if len(row.Runs) != 2 {
			t.Errorf("%s: runs %+v", row.Command, row.Runs)
		}
		for _, x := range row.Runs {
			if x.WallMs <= 0 {
				t.Errorf("%s: run %+v", row.Command, x)
			}
		}
		if row.Git != nil {
			gits++
			if row.Git.WallMs <= 0 || !strings.HasPrefix(row.GitCmd, "git ") {
				t.Errorf("%s: git %+v %q", row.Command, row.Git, row.GitCmd)
			}
		}
	}
	if gits != 3 {
		t.Errorf("%d rows with git beside, want 3 (two greps and log -S)", gits)
	}
	if len(rep.Targets) != 4 {
		t.Errorf("targets = %+v", rep.Targets)
	}
	var out strings.Builder
	if err := rep.WriteText(&out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"git bcindex --version", "git grep -n -e Commit HEAD", "first search ≤ 30 ms"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, out.String())
		}
	}
	if _, err := RunStartup(ctx, StartupConfig{Repo: r.Dir}); err == nil {
		t.Error("a run with no build was taken")
	}
}
