package main

import (
	"bufio"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// TestInterruptedHistoryIndex sends SIGINT to `index --history` once its
// first progress line reaches the pipe of its stderr: it exits 130 saying
// it was interrupted, prints no summary of a finished run on stdout, and a
// second run completes, its progress ending with all the commits and the
// recording of their changes.
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

	// Progress reaches a pipe: SIGINT once its first line is read.
	cmd := exec.Command(bin, "--dir", r.Dir, "index", "--history", "600")
	var out strings.Builder
	cmd.Stdout = &out
	stderrPipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var errOut strings.Builder
	sc := bufio.NewScanner(stderrPipe)
	for sc.Scan() {
		fmt.Fprintln(&errOut, sc.Text())
		if strings.HasPrefix(sc.Text(), "indexing history: ") && strings.Contains(sc.Text(), "/600 commits, ") {
			cmd.Process.Signal(syscall.SIGINT)
			break
		}
	}
	rest, _ := io.ReadAll(stderrPipe)
	errOut.Write(rest)
	err = cmd.Wait()
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
	if !strings.Contains(stderr, "indexing history: 600/600 commits, ") {
		t.Errorf("second run's progress lacks its last line:\n%s", stderr)
	}
	// The whole history: the change tables are recorded after the commits.
	if !strings.Contains(stderr, "600/600 commits, ") || !strings.Contains(stderr[strings.Index(stderr, "600/600 commits, "):], "recording every commit's changes") {
		t.Errorf("second run's progress does not say it records the changes after the commits:\n%s", stderr)
	}
}
