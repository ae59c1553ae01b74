package storewrite

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/bcindex/bcindex/store"
	"github.com/gofrs/flock"
)

// Lock is the one-indexer-at-a-time lock of a repository.
type Lock struct{ fl *flock.Flock }

// AcquireLock takes the index lock, waiting up to wait for a running indexer
// to finish (0: do not wait).
func AcquireLock(ctx context.Context, indexDir string, wait time.Duration) (*Lock, error) {
	if err := os.MkdirAll(indexDir, 0o755); err != nil {
		return nil, fmt.Errorf("create index dir: %w", err)
	}
	fl := flock.New(filepath.Join(indexDir, "index.lock"))
	deadline := time.Now().Add(wait)
	for {
		ok, err := fl.TryLock()
		if err != nil {
			return nil, fmt.Errorf("lock index: %w", err)
		}
		if ok {
			return &Lock{fl: fl}, nil
		}
		if time.Now().After(deadline) {
			return nil, store.ErrLocked
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// Release drops the lock.
func (l *Lock) Release() error { return l.fl.Unlock() }

// WithLocked runs fn on the open store under the index lock, waiting for a
// running indexer up to wait: the way a command that only reads or writes
// a few keys (summaries) shares the store with indexing.
func WithLocked(ctx context.Context, indexDir string, wait time.Duration, fn func(*Store) error) error {
	lock, err := AcquireLock(ctx, indexDir, wait)
	if err != nil {
		return err
	}
	defer lock.Release()
	st, err := OpenStore(indexDir)
	if err != nil {
		return err
	}
	err = fn(st)
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	return err
}
