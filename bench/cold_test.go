package bench

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// TestCold indexes two small repositories cold with the same build twice,
// as the two builds of a before-and-after run, and checks what the report
// holds; it asserts no timing.
func TestCold(t *testing.T) {
	if testing.Short() {
		t.Skip("builds git-bcindex")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	dir := t.TempDir()
	for _, name := range []string{"alpha", "beta"} {
		r := gittest.New(t)
		if err := os.Symlink(r.Dir, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
		r.Commit("first", map[string]string{
			"main.go": "package main\n\n// Greet says hello.\nfunc Greet() string { return \"hello\" }\n\nfunc main() { println(Greet()) }\n",
			"util.py": "def add(a, b):\n    return a + b\n",
		})
	}
	bin, err := Binary(ctx, Config{}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	rep, err := RunCold(ctx, ColdConfig{Dir: dir, Bins: []string{bin, bin}, Reps: 1, Log: &log})
	if err != nil {
		t.Fatalf("RunCold: %v\n%s", err, log.String())
	}
	if len(rep.Repos) != 2 || rep.Repos[0].Name != "alpha" || rep.Repos[1].Name != "beta" {
		t.Fatalf("repositories = %+v", rep.Repos)
	}
	for _, cr := range rep.Repos {
		if cr.Files != 2 || cr.Chunks < 3 || len(cr.Runs) != 2 {
			t.Errorf("%s = %+v", cr.Name, cr)
		}
		for _, x := range cr.Runs {
			if x.WallMs <= 0 || x.CPUMs <= 0 || x.PeakMiB <= 0 {
				t.Errorf("%s: run = %+v", cr.Name, x)
			}
		}
	}
	if len(rep.Summary) != 2 || rep.Summary[0].MaxRepo == "" || rep.Summary[0].MeanWallMs <= 0 {
		t.Errorf("summary = %+v", rep.Summary)
	}
	var out strings.Builder
	if err := rep.WriteText(&out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "alpha") || !strings.Contains(out.String(), "wall mean") {
		t.Errorf("text report:\n%s", out.String())
	}
	if _, err := RunCold(ctx, ColdConfig{Dir: t.TempDir(), Bins: []string{bin}}); err == nil {
		t.Error("a directory with no repository was taken")
	}
}
