package main

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// TestMCPClosedStdout: a client that closes the server's stdout while
// keeping its stdin open ends the server with exit 2 and a line on
// stderr saying why, instead of a silent death by SIGPIPE or a server
// reading requests it can no longer answer.
func TestMCPClosedStdout(t *testing.T) {
	bin := buildBinary(t)
	r := gittest.New(t)
	r.Commit("init", map[string]string{"a.go": "package a\n\nfunc Retry() {}\n"})
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR.Close() // the client stops reading before the server writes
	cmd := exec.Command(bin, "--dir", r.Dir, "mcp")
	cmd.Stdout = outW
	var stderr strings.Builder
	cmd.Stderr = &stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	outW.Close()
	defer in.Close()
	io.WriteString(in, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"pipe","version":"1"}}}`+"\n")
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != exitError {
			t.Fatalf("want exit %d, got %v; stderr:\n%s", exitError, err, stderr.String())
		}
		if !strings.Contains(stderr.String(), "write to the client") || !strings.Contains(stderr.String(), "broken pipe") {
			t.Errorf("stderr does not say the output was closed:\n%s", stderr.String())
		}
	case <-time.After(time.Minute):
		cmd.Process.Kill()
		t.Fatal("the server still runs a minute after its stdout was closed")
	}
}
