package main

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// TestKilledIndexerLosesNothing starts `git bcindex index` on a repository
// of 3,000 files, kills it with SIGKILL at seeded random moments, and checks
// after each kill that search works on what was published (never a corrupt
// or half-written blob) and that a final run completes the index.
func TestKilledIndexerLosesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("kill test skipped in -short mode")
	}
	bin := buildBinary(t)
	r := gittest.New(t)
	files := map[string]string{}
	for i := 0; i < 3000; i++ {
		files[fmt.Sprintf("pkg%02d/file%d.go", i%50, i)] = fmt.Sprintf("package pkg%02d\n\n// Compute%d returns the checksum of block %d.\nfunc Compute%d(data []byte) int {\n\tsum := %d\n\tfor _, b := range data {\n\t\tsum = sum*31 + int(b)\n\t}\n\treturn sum\n}\n", i%50, i, i, i, i)
	}
	r.Commit("init", files)
	rng := rand.New(rand.NewSource(42))
	for round := 0; round < 4; round++ {
		cmd := exec.Command(bin, "--dir", r.Dir, "index", "--checkpoint", "250")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(100+rng.Intn(900)) * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()

		// Whatever was published is searchable; nothing is reported corrupt.
		out, err := exec.Command(bin, "--dir", r.Dir, "search", "--no-index", "--json", "-k", "3", "Compute7").Output()
		if err != nil {
			// Exit 1 is "no hits"; exit 2 only when nothing was published yet.
			ee, ok := err.(*exec.ExitError)
			if !ok || ee.ExitCode() != 1 && !(ee.ExitCode() == 2 && strings.Contains(string(ee.Stderr), "no index")) {
				t.Fatalf("round %d: search after SIGKILL: %v\n%s", round, err, out)
			}
			if strings.Contains(string(ee.Stderr), "corrupt") {
				t.Fatalf("round %d: %s", round, ee.Stderr)
			}
		}
		if st, err := exec.Command(bin, "--dir", r.Dir, "status", "--json").Output(); err == nil {
			t.Logf("round %d: after SIGKILL: %s", round, st)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			if line == "" {
				continue
			}
			var hit map[string]any
			if err := json.Unmarshal([]byte(line), &hit); err != nil {
				t.Fatalf("round %d: bad output line %q", round, line)
			}
		}
	}
	out, err := exec.Command(bin, "--dir", r.Dir, "index", "--json").Output()
	if err != nil {
		t.Fatalf("final index: %v", err)
	}
	out, err = exec.Command(bin, "--dir", r.Dir, "status", "--json").Output()
	if err != nil {
		t.Fatalf("status: %v", err)
	}
	var st map[string]any
	if err := json.Unmarshal(out, &st); err != nil {
		t.Fatal(err)
	}
	if st["pending_blobs"] != float64(0) || st["blobs"] != float64(3000) || st["indexed"] != true {
		t.Fatalf("after resuming: %s", out)
	}
	out, err = exec.Command(bin, "--dir", r.Dir, "search", "--no-index", "--json", "-k", "1", "--mode", "symbol", "Compute2999").Output()
	if err != nil || !strings.Contains(string(out), `"name":"Compute2999"`) {
		t.Fatalf("search after resume: %v %s", err, out)
	}
}
