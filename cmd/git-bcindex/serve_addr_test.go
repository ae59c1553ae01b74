package main

import (
	"bufio"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// TestServeWarnsBeyondLoopback: serve on every interface warns on stderr
// that it exposes the index beyond this machine; on loopback it does not.
func TestServeWarnsBeyondLoopback(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildBinary(t)
	r := gittest.New(t)
	r.Commit("init", map[string]string{"store/repo.go": sample})
	for _, tc := range []struct {
		addr string
		warn bool
	}{{"0.0.0.0:0", true}, {"127.0.0.1:0", false}} {
		cmd := exec.Command(bin, "--dir", r.Dir, "serve", "--addr", tc.addr)
		stderr, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := make(chan string)
		go func() {
			defer close(lines)
			sc := bufio.NewScanner(stderr)
			for sc.Scan() {
				lines <- sc.Text()
			}
		}()
		var before []string
	read:
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("%s: serve ended before serving: %v", tc.addr, before)
				}
				if strings.HasPrefix(l, "serving http://") {
					break read
				}
				before = append(before, l)
			case <-time.After(time.Minute):
				t.Fatalf("%s: not serving after a minute: %v", tc.addr, before)
			}
		}
		cmd.Process.Signal(syscall.SIGINT)
		for range lines {
		}
		cmd.Wait()
		warned := len(before) == 1 && strings.HasPrefix(before[0], "warning: listening on ") && strings.Contains(before[0], "without authentication")
		if warned != tc.warn || !tc.warn && len(before) != 0 {
			t.Errorf("%s: stderr before serving: %q, want a warning: %v", tc.addr, before, tc.warn)
		}
	}
}
