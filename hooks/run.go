package hooks

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/gofrs/flock"
)

// Files in the index directory. hook.lock is held by the one background
// worker of a repository for as long as it runs; hook.pending says that
// HEAD moved since the worker last looked.
const (
	LogFile     = "hook.log"
	lockFile    = "hook.lock"
	pendingFile = "hook.pending"
	maxLogBytes = 1 << 20
)

// Trigger is the hook invocation that asked for an update.
type Trigger struct {
	Hook string
	Args []string
}

func (t Trigger) String() string { return strings.TrimSpace(t.Hook + " " + strings.Join(t.Args, " ")) }

// Job is one round of background work: bring the index up to date with
// HEAD. It returns a one-line summary for the log.
type Job func(ctx context.Context, t Trigger) (string, error)

// Launch is what a hook runs. It records that HEAD moved and, unless a
// worker is already running (that worker will see the record and run once
// more), starts worker detached (detach: a new session, or on Windows a
// new process group without a console), stdin from /dev/null,
// output appended to hook.log. It returns without waiting.
//
// Ordering makes coalescing lossless: Launch writes the record before it
// looks at the lock, and Work looks for a record after it drops the lock.
func Launch(indexDir string, t Trigger, worker *exec.Cmd) (started bool, err error) {
	return launch(indexDir, t, func() error {
		log, err := openLog(indexDir)
		if err != nil {
			return err
		}
		defer log.Close()
		worker.Stdin = nil
		worker.Stdout, worker.Stderr = log, log
		detach(worker)
		if err := worker.Start(); err != nil {
			return fmt.Errorf("start hook worker: %w", err)
		}
		return worker.Process.Release()
	})
}

func launch(indexDir string, t Trigger, start func() error) (bool, error) {
	if err := os.WriteFile(filepath.Join(indexDir, pendingFile), []byte(t.String()+"\n"), 0o644); err != nil {
		return false, fmt.Errorf("record hook run: %w", err)
	}
	fl := flock.New(filepath.Join(indexDir, lockFile))
	ok, err := fl.TryLock()
	if err != nil {
		return false, fmt.Errorf("check hook worker: %w", err)
	}
	if !ok {
		return false, nil // the running worker picks the record up
	}
	fl.Unlock()
	if err := start(); err != nil {
		return false, err
	}
	return true, nil
}

// openLog opens hook.log for appending, keeping one older generation once
// it grows past maxLogBytes.
func openLog(indexDir string) (*os.File, error) {
	p := filepath.Join(indexDir, LogFile)
	if fi, err := os.Stat(p); err == nil && fi.Size() > maxLogBytes {
		os.Rename(p, p+".1")
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open hook log: %w", err)
	}
	return f, nil
}

// Work is the detached worker: while hook runs are pending it runs job,
// one round at a time. A second worker that finds the lock taken exits at
// once, so at most one job runs per repository; a burst of hook runs
// costs at most the running round plus one more.
func Work(ctx context.Context, indexDir string, job Job, log io.Writer) error {
	fl := flock.New(filepath.Join(indexDir, lockFile))
	for {
		ok, err := fl.TryLock()
		if err != nil {
			return fmt.Errorf("lock hook worker: %w", err)
		}
		if !ok {
			return nil
		}
		for ctx.Err() == nil {
			t, ok, err := takePending(indexDir)
			if err != nil {
				fl.Unlock()
				return err
			}
			if !ok {
				break
			}
			logf(log, "indexer start pid=%d trigger=%q", os.Getpid(), t.String())
			start := time.Now()
			line, err := job(ctx, t)
			if err != nil {
				logf(log, "indexer failed pid=%d after %s: %v", os.Getpid(), time.Since(start).Round(time.Millisecond), err)
				continue
			}
			logf(log, "indexer done pid=%d %s", os.Getpid(), line)
		}
		fl.Unlock()
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if _, err := os.Stat(filepath.Join(indexDir, pendingFile)); err != nil {
			return nil
		}
		// A hook ran between our last look and the unlock: go round again.
	}
}

// takePending consumes the pending record. Renaming it first means a hook
// that writes a new record meanwhile is not lost: its record survives for
// the next round.
func takePending(indexDir string) (Trigger, bool, error) {
	p := filepath.Join(indexDir, pendingFile)
	taken := p + ".taken"
	if err := os.Rename(p, taken); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return Trigger{}, false, nil
		}
		return Trigger{}, false, fmt.Errorf("read pending hook run: %w", err)
	}
	b, err := os.ReadFile(taken)
	os.Remove(taken)
	if err != nil {
		return Trigger{}, false, fmt.Errorf("read pending hook run: %w", err)
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return Trigger{Hook: "unknown"}, true, nil
	}
	return Trigger{Hook: f[0], Args: f[1:]}, true, nil
}

func logf(w io.Writer, format string, args ...any) {
	fmt.Fprintf(w, "%s %s\n", time.Now().Format(time.RFC3339), fmt.Sprintf(format, args...))
}

// CleanEnv drops the variables git sets for hooks that would point a
// background process at a temporary index or a relative git dir.
func CleanEnv(env []string) []string {
	out := env[:0:0]
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_PREFIX", "GIT_COMMON_DIR", "GIT_EDITOR", "GIT_REFLOG_ACTION":
			continue
		}
		out = append(out, kv)
	}
	return out
}

// Skip reports whether GIT_BCINDEX_SKIP disables hooks for this command.
func Skip() bool {
	v := os.Getenv("GIT_BCINDEX_SKIP")
	return v != "" && v != "0" && !strings.EqualFold(v, "false")
}
