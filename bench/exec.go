package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// proc is the outcome of one child process.
type proc struct {
	Stdout  []byte
	Elapsed time.Duration
	CPU     time.Duration // user + system time of the child
	MaxRSS  int64         // bytes: the child's peak resident set (see peakRSS)
	Exit    int
}

// runner runs child processes with a fixed environment: git identity and
// dates, and no user or system git config (so a developer's settings, e.g.
// bcindex.vectors, do not change what is measured).
type runner struct {
	env []string
}

func newRunner(home string) *runner {
	env := os.Environ()
	env = append(env,
		"HOME="+home,
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL="+os.DevNull,
		"GIT_AUTHOR_NAME=bench", "GIT_AUTHOR_EMAIL=bench@example.invalid",
		"GIT_COMMITTER_NAME=bench", "GIT_COMMITTER_EMAIL=bench@example.invalid",
		"GIT_AUTHOR_DATE=2024-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2024-01-01T00:00:00Z",
		"NO_COLOR=1",
	)
	return &runner{env: env}
}

// run runs name with args in dir; okExit lists exit codes besides 0 that are
// not errors (git grep and git-bcindex search exit 1 when nothing matches).
func (r *runner) run(ctx context.Context, dir string, stdin io.Reader, okExit []int, name string, args ...string) (*proc, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = r.env
	cmd.Stdin = stdin
	var out, errb bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &errb
	start := time.Now()
	err := cmd.Start()
	var (
		sampled int64
		elapsed time.Duration
	)
	if err == nil {
		stop := make(chan struct{})
		done := make(chan int64)
		go func() { done <- peakRSS(cmd.Process.Pid, stop) }()
		err = cmd.Wait()
		elapsed = time.Since(start) // before waiting for the sampler
		close(stop)
		sampled = <-done
	}
	p := &proc{Stdout: out.Bytes(), Elapsed: elapsed}
	if cmd.ProcessState != nil {
		p.Exit = cmd.ProcessState.ExitCode()
		p.CPU = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		p.MaxRSS = sampled
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && sampled == 0 {
			p.MaxRSS = int64(ru.Maxrss) * 1024 // KiB on Linux
		}
	}
	if ctxErr := ctx.Err(); ctxErr != nil {
		return p, ctxErr
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		for _, c := range okExit {
			if p.Exit == c {
				return p, nil
			}
		}
	}
	if err != nil {
		return p, fmt.Errorf("%s %s: %w: %s", name, strings.Join(clipArgs(args), " "), err, tail(errb.String()))
	}
	return p, nil
}

// peakRSS samples the peak resident set (VmHWM in /proc/PID/status) of a
// running child every 10 ms until stop is closed, and returns the largest
// value read, or 0 when none could be (not Linux, or the child was too
// quick). The child's rusage cannot serve: on Linux a child's maxrss starts
// at the parent's peak, since Go starts children with vfork and exec keeps
// the shared memory's high-water mark; the harness grows to hundreds of MB
// while it holds the query index.
func peakRSS(pid int, stop <-chan struct{}) int64 {
	path := fmt.Sprintf("/proc/%d/status", pid)
	var peak int64
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		if b, err := os.ReadFile(path); err == nil {
			if _, rest, ok := bytes.Cut(b, []byte("VmHWM:")); ok {
				var kb int64
				if _, err := fmt.Sscan(string(rest), &kb); err == nil {
					peak = max(peak, kb*1024)
				}
			}
		}
		select {
		case <-stop:
			return peak
		case <-tick.C:
		}
	}
}

// git runs git in dir and returns its output.
func (r *runner) git(ctx context.Context, dir string, args ...string) ([]byte, error) {
	p, err := r.run(ctx, dir, nil, nil, "git", args...)
	if err != nil {
		return nil, err
	}
	return p.Stdout, nil
}

// gitIn runs git in dir with stdin.
func (r *runner) gitIn(ctx context.Context, dir string, stdin []byte, args ...string) error {
	_, err := r.run(ctx, dir, bytes.NewReader(stdin), nil, "git", args...)
	return err
}

func clipArgs(a []string) []string {
	if len(a) > 8 {
		return append(a[:8:8], "…")
	}
	return a
}

// tail keeps the end of a child's stderr for an error message.
func tail(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 800 {
		s = "…" + s[len(s)-800:]
	}
	return s
}
