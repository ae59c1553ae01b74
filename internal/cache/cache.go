// Package cache keeps the files a query derives from git and may write
// while it answers (pickaxe's change tables): named files under the index
// directory, read through the caller's check of their format and written
// whole (a temporary file renamed into place) under an advisory lock on
// the entry. A writer never waits: when another process or goroutine
// holds an entry's lock, Put writes nothing and the query answers from
// what it computed. The index's own lock (index.lock) is not involved, so
// a query never waits on an indexing run.
package cache

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/gofrs/flock"

	"github.com/bcindex/bcindex/internal/atomicfile"
)

// Dir is the index directory whose derived files a query reads and writes.
type Dir string

// ErrName is returned for an entry name that is not a local path under
// the directory (absolute, empty, or climbing out with "..").
var ErrName = errors.New("cache entry name is not a local path")

// Path is where the entry name is stored.
func (d Dir) Path(name string) string { return filepath.Join(string(d), name) }

// lockPath is the entry's lock file: hidden, beside the entry.
func (d Dir) lockPath(name string) string {
	return filepath.Join(string(d), filepath.Dir(name), "."+filepath.Base(name)+".lock")
}

// Get reads the entry name and runs check on its bytes (the format's
// magic and checksum): a missing entry is os.ErrNotExist, one that fails
// its check returns check's error.
func (d Dir) Get(name string, check func([]byte) error) ([]byte, error) {
	if !filepath.IsLocal(name) {
		return nil, fmt.Errorf("read cache %q: %w", name, ErrName)
	}
	b, err := os.ReadFile(d.Path(name))
	if err != nil {
		return nil, err
	}
	if check != nil {
		if err := check(b); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// TryLock takes the entry's advisory lock without waiting: ok is false
// when someone else holds it. release drops it.
func (d Dir) TryLock(name string) (release func() error, ok bool, err error) {
	if !filepath.IsLocal(name) {
		return nil, false, fmt.Errorf("lock cache %q: %w", name, ErrName)
	}
	lp := d.lockPath(name)
	if err := os.MkdirAll(filepath.Dir(lp), 0o755); err != nil {
		return nil, false, fmt.Errorf("lock cache %s: %w", name, err)
	}
	fl := flock.New(lp)
	ok, err = fl.TryLock()
	if err != nil {
		return nil, false, fmt.Errorf("lock cache %s: %w", name, err)
	}
	if !ok {
		return nil, false, nil
	}
	return fl.Unlock, true, nil
}

// Put writes data as the entry name, atomically for concurrent readers,
// under the entry's lock. When the lock is held elsewhere it writes
// nothing and returns false with no error: the holder is writing the same
// derived content, and the caller answers from what it has.
func (d Dir) Put(name string, data []byte) (written bool, err error) {
	release, ok, err := d.TryLock(name)
	if err != nil || !ok {
		return false, err
	}
	defer release()
	if err := atomicfile.Cache(d.Path(name), data); err != nil {
		return false, err
	}
	return true, nil
}
