package hooks_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/gofrs/flock"
)

// End-to-end tests: a real git, the real binary on PATH, real hooks.

var (
	buildOnce sync.Once
	binDir    string
	buildErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// withBinary builds git-bcindex once, as install.sh does, and puts it first
// on PATH.
func withBinary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		if binDir, buildErr = os.MkdirTemp("", "bcindex-bin-"); buildErr != nil {
			return
		}
		out, err := exec.Command("go", "build", "-tags", "nocluster", "-o", filepath.Join(binDir, "git-bcindex"), "../cmd/git-bcindex").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	t.Setenv("PATH", binDir+string(os.PathListSeparator)+os.Getenv("PATH"))
	return filepath.Join(binDir, "git-bcindex")
}

// bcindex runs the binary in dir and returns stdout; it fails the test
// unless the exit code is one of ok (default 0).
func bcindex(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git-bcindex", append([]string{"--dir", dir}, args...)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git-bcindex %s: %v\nstdout: %s\nstderr: %s", strings.Join(args, " "), err, out, stderr.String())
	}
	return string(out)
}

func indexDir(r *gittest.Repo) string { return filepath.Join(r.Dir, ".git", "bcindex") }

// waitIndexed waits (bounded) until the background worker logged a
// finished round for commit, and returns that log line.
func waitIndexed(t *testing.T, r *gittest.Repo, commit string) string {
	t.Helper()
	re := regexp.MustCompile(`indexer done pid=\d+ head=` + commit[:12] + ` .*`)
	deadline := time.Now().Add(90 * time.Second)
	for time.Now().Before(deadline) {
		b, _ := os.ReadFile(filepath.Join(indexDir(r), "hook.log"))
		if m := re.FindAllString(string(b), -1); len(m) > 0 {
			return m[len(m)-1]
		}
		if strings.Contains(string(b), "indexer failed") {
			t.Fatalf("background indexing failed:\n%s", b)
		}
		time.Sleep(50 * time.Millisecond)
	}
	b, _ := os.ReadFile(filepath.Join(indexDir(r), "hook.log"))
	t.Fatalf("commit %s not indexed in the background within 90s; hook.log:\n%s", commit, b)
	return ""
}

const retryGo = `package net

// RetryWithBackoff calls f until it succeeds, doubling the pause each time.
func RetryWithBackoff(f func() error) error {
	return f()
}
`

func TestHooksEndToEnd(t *testing.T) {
	withBinary(t)
	r := gittest.New(t)
	r.Commit("init", map[string]string{"main.go": "package main\n\nfunc main() {}\n", "README.md": "# demo\n"})
	bcindex(t, r.Dir, "index")

	foreignPath := filepath.Join(r.Dir, ".git", "hooks", "post-commit")
	foreign := "#!/bin/sh\n# the project's own hook\necho \"foreign hook ran\" >> \"$(git rev-parse --git-dir)/foreign.log\"\nexit 0\n"
	if err := os.WriteFile(foreignPath, []byte(foreign), 0o755); err != nil {
		t.Fatal(err)
	}
	out := bcindex(t, r.Dir, "hooks", "install")
	if !strings.Contains(out, "post-commit    added to the existing hook") || !strings.Contains(out, "post-merge     created") {
		t.Fatalf("install output:\n%s", out)
	}
	if st := bcindex(t, r.Dir, "status"); !regexp.MustCompile(`hooks\s+installed`).MatchString(st) {
		t.Errorf("status does not say hooks are installed:\n%s", st)
	}

	head := r.Commit("add retry", map[string]string{"net/retry.go": retryGo})
	if b, err := os.ReadFile(filepath.Join(r.Dir, ".git", "foreign.log")); err != nil || !strings.Contains(string(b), "foreign hook ran") {
		t.Fatalf("the foreign post-commit hook did not run: %v", err)
	}
	line := waitIndexed(t, r, head)
	if !strings.Contains(line, "blobs_new=1 ") || !strings.Contains(line, "listing=diff") {
		t.Errorf("1-file commit: %s", line)
	}
	var st struct {
		Commit  string `json:"commit"`
		Pending int    `json:"pending_blobs"`
	}
	if err := json.Unmarshal([]byte(bcindex(t, r.Dir, "status", "--json")), &st); err != nil || st.Commit != head || st.Pending != 0 {
		t.Fatalf("status after the hook: %+v (%v)", st, err)
	}
	out = bcindex(t, r.Dir, "search", "--no-index", "--json", "-k", "1", "RetryWithBackoff")
	if !strings.Contains(out, `"name":"RetryWithBackoff"`) {
		t.Fatalf("new function not found without a manual index: %s", out)
	}

	// A rename with unchanged content processes nothing.
	r.Git("mv", "net/retry.go", "net/backoff.go")
	head = r.Commit("rename", nil)
	if line := waitIndexed(t, r, head); !strings.Contains(line, "blobs_new=0 ") {
		t.Errorf("rename: %s", line)
	}

	out = bcindex(t, r.Dir, "hooks", "uninstall")
	if !strings.Contains(out, "post-commit    removed from the hook") {
		t.Errorf("uninstall output:\n%s", out)
	}
	if b, err := os.ReadFile(foreignPath); err != nil || string(b) != foreign {
		t.Fatalf("foreign hook not restored byte for byte: %q (%v)", b, err)
	}
	if _, err := os.Stat(filepath.Join(r.Dir, ".git", "hooks", "post-merge")); !os.IsNotExist(err) {
		t.Errorf("post-merge created by install survived uninstall: %v", err)
	}
}

func TestHooksPathAndSwitches(t *testing.T) {
	withBinary(t)
	r := gittest.New(t)
	r.Git("config", "core.hooksPath", ".githooks")
	r.Commit("init", map[string]string{"main.go": "package main\n\nfunc main() {}\n"})
	bcindex(t, r.Dir, "hooks", "install")
	if _, err := os.Stat(filepath.Join(r.Dir, ".githooks", "post-commit")); err != nil {
		t.Fatalf("hook not installed in core.hooksPath: %v", err)
	}
	if _, err := os.Stat(filepath.Join(r.Dir, ".git", "hooks", "post-commit")); err == nil {
		t.Fatal("hook installed in .git/hooks despite core.hooksPath")
	}
	// No index yet: the first background round indexes HEAD in full.
	head := r.Commit("add retry", map[string]string{"net/retry.go": retryGo})
	waitIndexed(t, r, head)
	if out := bcindex(t, r.Dir, "search", "--no-index", "--json", "-k", "1", "RetryWithBackoff"); !strings.Contains(out, "RetryWithBackoff") {
		t.Fatalf("not found: %s", out)
	}

	logSize := func() int64 {
		fi, err := os.Stat(filepath.Join(indexDir(r), "hook.log"))
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	before := logSize()
	commit := func(env ...string) (string, string) {
		r.Write(map[string]string{"x.txt": time.Now().String()})
		r.Git("add", "-A")
		cmd := exec.Command("git", "commit", "-q", "-m", "x")
		cmd.Dir = r.Dir
		cmd.Env = append(os.Environ(), append([]string{"HOME=" + r.Dir, "GIT_CONFIG_NOSYSTEM=1"}, env...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("commit: %v\n%s", err, out)
		}
		return string(out), r.Git("rev-parse", "HEAD")
	}
	commit("GIT_BCINDEX_SKIP=1")
	r.Git("config", "bcindex.hooks", "false")
	commit()
	time.Sleep(500 * time.Millisecond)
	if logSize() != before {
		t.Error("a disabled hook started the background job")
	}
	r.Git("config", "--unset", "bcindex.hooks")
	// Without git-bcindex on PATH the hook exits 0 quietly.
	out, _ := commit("PATH=/usr/bin:/bin")
	if out != "" {
		t.Errorf("hook without the binary printed %q", out)
	}
	_, head = commit()
	waitIndexed(t, r, head)
}

// TestBurstStartsFewIndexers makes 20 commits while a worker is busy and
// checks from the log that none of their hook runs started an indexer, that
// the burst cost one round once the worker was free, and that the last
// commit ends up indexed. The test holds hook.lock itself to stand in for
// the busy worker, so the outcome does not depend on how fast a round is.
func TestBurstStartsFewIndexers(t *testing.T) {
	withBinary(t)
	r := gittest.New(t)
	r.Commit("init", map[string]string{"main.go": "package main\n\nfunc main() {}\n"})
	bcindex(t, r.Dir, "index")
	bcindex(t, r.Dir, "hooks", "install")
	busy := flock.New(filepath.Join(indexDir(r), "hook.lock"))
	if ok, err := busy.TryLock(); err != nil || !ok {
		t.Fatalf("take hook.lock: %v %v", ok, err)
	}
	var head string
	for i := 0; i < 20; i++ {
		head = r.Commit(fmt.Sprintf("c%d", i), map[string]string{fmt.Sprintf("f%d.go", i): fmt.Sprintf("package main\n\n// F%d is function %d.\nfunc F%d() int { return %d }\n", i, i, i, i)})
	}
	if b, _ := os.ReadFile(filepath.Join(indexDir(r), "hook.log")); strings.Contains(string(b), "indexer start") {
		t.Errorf("a hook run started an indexer while the worker was busy:\n%s", b)
	}
	busy.Unlock()
	// The next hook run finds the worker gone and starts one, which takes
	// the burst's pending record with its own.
	head = r.Commit("c20", map[string]string{"f20.go": "package main\n\n// F20 is function 20.\nfunc F20() int { return 20 }\n"})
	waitIndexed(t, r, head)
	f, err := os.Open(filepath.Join(indexDir(r), "hook.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	running, maxRunning, starts := 0, 0, 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		switch l := sc.Text(); {
		case strings.Contains(l, "indexer start"):
			starts++
			running++
			maxRunning = max(maxRunning, running)
		case strings.Contains(l, "indexer done"), strings.Contains(l, "indexer failed"):
			running--
			if strings.Contains(l, "listing=walked") {
				t.Errorf("a round walked the whole tree instead of diffing: %s", l)
			}
		}
	}
	if maxRunning > 2 {
		t.Errorf("%d indexers ran at once", maxRunning)
	}
	if starts > 2 {
		t.Errorf("%d indexer rounds for a burst of 21 commits: no coalescing", starts)
	}
	t.Logf("21 commits: %d indexer rounds, at most %d at once", starts, maxRunning)
	if out := bcindex(t, r.Dir, "search", "--no-index", "--json", "-k", "1", "F19"); !strings.Contains(out, `"name":"F19"`) {
		t.Errorf("last commit not searchable: %s", out)
	}
}

// TestSearchWhileIndexing runs searches in a loop while another process
// indexes a large commit: readers never open Badger, so none may fail.
func TestSearchWhileIndexing(t *testing.T) {
	withBinary(t)
	r := gittest.New(t)
	r.Commit("init", map[string]string{"net/retry.go": retryGo})
	bcindex(t, r.Dir, "index")
	files := map[string]string{}
	for i := 0; i < 2000; i++ {
		files[fmt.Sprintf("pkg%d/f%d.go", i%30, i)] = fmt.Sprintf("package pkg%d\n\n// Handler%d serves request kind %d.\nfunc Handler%d(n int) int {\n\treturn n * %d\n}\n", i%30, i, i, i, i)
	}
	r.Commit("large", files)

	indexer := exec.Command("git-bcindex", "--dir", r.Dir, "index")
	if err := indexer.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- indexer.Wait() }()
	searches, failures, overlapped := 0, 0, 0
	for running := true; running; {
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("indexer: %v", err)
			}
			running = false
		default:
			overlapped++
		}
		for _, args := range [][]string{
			{"search", "--ref", "HEAD~1", "--json", "RetryWithBackoff"}, // fully indexed: must hit
			{"search", "--no-index", "--json", "Handler7"},              // being indexed: may miss
		} {
			cmd := exec.Command("git-bcindex", append([]string{"--dir", r.Dir}, args...)...)
			out, err := cmd.CombinedOutput()
			searches++
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code > 1 || (args[2] == "HEAD~1" && code != 0) {
				failures++
				t.Errorf("search %v during indexing: exit %d\n%s", args, code, out[max(0, len(out)-300):])
			}
		}
	}
	t.Logf("%d searches, %d of them while the indexer ran, %d failures", searches, 2*overlapped, failures)
	if overlapped < 3 {
		t.Logf("the index finished too fast to overlap many searches (%d rounds)", overlapped)
	}
	if out := bcindex(t, r.Dir, "search", "--no-index", "--json", "-k", "1", "Handler1999"); !strings.Contains(out, `"name":"Handler1999"`) {
		t.Errorf("large commit not searchable after indexing: %s", out)
	}
}
