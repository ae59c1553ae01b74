package main

import (
	"fmt"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// TestInterruptedHistoryIndex sends SIGINT to `index --history` a moment
// after it starts: it exits 130 saying it was interrupted, prints no
// summary of a finished run on stdout, and a second run completes.
func TestInterruptedHistoryIndex(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and indexes 600 commits")
	}
	bin := buildBinary(t)
	r := gittest.New(t)
	var fi strings.Builder
	for i := 0; i < 600; i++ {
		msg := fmt.Sprintf("commit %d\n", i)
		fmt.Fprintf(&fi, "commit refs/heads/main\ncommitter A <a@example.com> %d +0000\ndata %d\n%s", 1600000000+i*3600, len(msg), msg)
		for j := 0; j < 4; j++ {
			var b strings.Builder
			fmt.Fprintf(&b, "package p%d\n\n// F%d_%d scales x by %d.\nfunc F%d_%d(x int) int {\n\treturn x * %d\n}\n", j, i, j, i, i, j, i)
			for k := 0; k < 30; k++ {
				fmt.Fprintf(&b, "\nfunc G%d_%d_%d() string { return \"v%d\" }\n", i, j, k, k)
			}
			fmt.Fprintf(&fi, "M 100644 inline p%d/f%d.go\ndata %d\n%s\n", j, i%50, b.Len(), b.String())
		}
	}
	r.GitInput(fi.String(), "fast-import", "--quiet")
	r.Git("symbolic-ref", "HEAD", "refs/heads/main")
	r.Git("reset", "-q", "--hard")

	cmd := exec.Command(bin, "--dir", r.Dir, "index", "--history", "600")
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1500 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != exitInterrupted {
		t.Fatalf("after SIGINT: %v, want exit %d\nstdout: %s\nstderr: %s", err, exitInterrupted, out.String(), errOut.String())
	}
	if strings.Contains(out.String(), "indexed") || !strings.Contains(errOut.String(), "interrupted: ") {
		t.Errorf("an interrupted run reads as a finished one:\nstdout: %s\nstderr: %s", out.String(), errOut.String())
	}
	code, stdout, stderr := runCLI(t, r.Dir, "index", "--history", "600")
	if code != 0 || !strings.Contains(stdout, "indexed 600 commits") {
		t.Errorf("second run: exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
}
