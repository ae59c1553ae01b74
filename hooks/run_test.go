package hooks

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestWorkCoalesces fires a burst of hook runs at an in-process worker
// (flock locks conflict between file descriptors of one process too): one
// job at a time, far fewer rounds than hook runs, and none lost.
func TestWorkCoalesces(t *testing.T) {
	dir := t.TempDir()
	var running, maxRunning, rounds, head, indexed atomic.Int64
	job := func(ctx context.Context, tr Trigger) (string, error) {
		n := running.Add(1)
		defer running.Add(-1)
		if m := maxRunning.Load(); n > m {
			maxRunning.CompareAndSwap(m, n)
		}
		rounds.Add(1)
		h := head.Load() // "resolve HEAD" after the record was taken
		time.Sleep(30 * time.Millisecond)
		indexed.Store(h)
		return "ok", nil
	}
	var log syncBuffer
	var wg sync.WaitGroup
	workers := 0
	for i := 1; i <= 20; i++ {
		head.Store(int64(i)) // the commit happens before its hook runs
		started, err := launch(dir, Trigger{Hook: "post-commit"}, func() error {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := Work(context.Background(), dir, job, &log); err != nil {
					t.Error(err)
				}
			}()
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if started {
			workers++
		}
		time.Sleep(5 * time.Millisecond)
	}
	wg.Wait()
	if maxRunning.Load() > 1 {
		t.Errorf("%d jobs ran at once", maxRunning.Load())
	}
	if r := rounds.Load(); r >= 20 || r < 1 {
		t.Errorf("%d rounds for 20 hook runs", r)
	}
	if indexed.Load() != 20 {
		t.Errorf("last round indexed HEAD %d, want 20 (an update was lost)", indexed.Load())
	}
	if _, err := os.Stat(filepath.Join(dir, pendingFile)); err == nil {
		t.Error("pending record left behind")
	}
	starts := strings.Count(log.String(), "indexer start")
	if int64(starts) != rounds.Load() {
		t.Errorf("log has %d starts for %d rounds", starts, rounds.Load())
	}
	t.Logf("20 hook runs: %d workers started, %d rounds", workers, rounds.Load())
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestCleanEnv(t *testing.T) {
	got := CleanEnv([]string{"PATH=/bin", "GIT_DIR=.git", "GIT_INDEX_FILE=/tmp/x", "GIT_BCINDEX_SKIP=0", "HOME=/h"})
	if strings.Join(got, " ") != "PATH=/bin GIT_BCINDEX_SKIP=0 HOME=/h" {
		t.Errorf("CleanEnv = %v", got)
	}
}
