package hooks_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/gofrs/flock"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/hooks"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// BenchmarkHooks measures, on a repository of real code nobody here wrote
// (GOROOT/src: over 10,000 files; BCINDEX_BENCH_SRC names another tree):
//   - commit-without-hook / commit-with-hook: the wall time of `git commit`
//     of a 1-file change, before and after `hooks install`;
//   - update-1-file: the background job's work for a 1-file commit (diffed
//     listing, then only the new blob), reported also as a fraction of the
//     full index time (metric "of-full").
//
// Run: go test ./hooks -run XXX -bench BenchmarkHooks -benchtime 10x
func BenchmarkHooks(b *testing.B) {
	src := os.Getenv("BCINDEX_BENCH_SRC")
	if src == "" {
		src = filepath.Join(runtime.GOROOT(), "src")
	}
	withBinary(b)
	r := gittest.New(b)
	if out, err := exec.Command("cp", "-r", src+"/.", r.Dir).CombinedOutput(); err != nil {
		b.Fatalf("copy corpus: %v\n%s", err, out)
	}
	r.Git("add", "-A")
	r.Git("commit", "-qm", "corpus")
	options := func(*gitindex.Repo) (indexer.Options, error) {
		return indexer.Options{Embedder: embed.Default()}, nil
	}
	job := hooks.IndexJob(r.Dir, options)
	start := time.Now()
	if _, err := job(context.Background(), hooks.Trigger{Hook: "post-commit"}); err != nil {
		b.Fatal(err)
	}
	full := time.Since(start)
	b.Logf("full index: %s", full)

	n := 0
	commitOne := func(env ...string) {
		n++
		r.Write(map[string]string{"bench/change.go": fmt.Sprintf("package bench\n\n// Change%d is edit %d.\nfunc Change%d() int { return %d }\n", n, n, n, n)})
		r.Git("add", "bench/change.go")
		cmd := exec.Command("git", "commit", "-qm", fmt.Sprintf("change %d", n))
		cmd.Dir = r.Dir
		cmd.Env = append(os.Environ(), env...)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("commit: %v\n%s", err, out)
		}
	}
	b.Run("commit-without-hook", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			commitOne()
		}
	})
	hooksDir, err := hooks.Dir(r.Dir, filepath.Join(r.Dir, ".git"))
	if err != nil {
		b.Fatal(err)
	}
	if _, err := hooks.Install(hooksDir); err != nil {
		b.Fatal(err)
	}
	b.Run("commit-with-hook", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			commitOne()
			// Commits are seconds apart in real use: let the background
			// worker finish so it does not compete with the next commit.
			b.StopTimer()
			waitIdle(b, filepath.Join(r.Dir, ".git", "bcindex"))
			b.StartTimer()
		}
	})
	b.Run("update-1-file", func(b *testing.B) {
		var total time.Duration
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			commitOne("GIT_BCINDEX_SKIP=1")
			b.StartTimer()
			t0 := time.Now()
			if _, err := job(context.Background(), hooks.Trigger{Hook: "post-commit"}); err != nil {
				b.Fatal(err)
			}
			total += time.Since(t0)
		}
		b.ReportMetric(float64(total)/float64(b.N)/float64(full), "of-full")
	})
}

// waitIdle waits (bounded) until no hook run is pending or working.
func waitIdle(b *testing.B, indexDir string) {
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		_, pending := os.Stat(filepath.Join(indexDir, "hook.pending"))
		lock := flock.New(filepath.Join(indexDir, "hook.lock"))
		if ok, err := lock.TryLock(); err == nil && ok {
			lock.Unlock()
			if os.IsNotExist(pending) {
				return
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	b.Fatal("background worker still busy after 2 minutes")
}
