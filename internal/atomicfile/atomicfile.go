// Package atomicfile writes the index's files so that a concurrent reader
// sees the old content or the new, never a part: the store's and the
// segments' files, the listing cache, and the entries of internal/cache.
package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
)

// Cache writes a file that can be rebuilt (a tree listing, a record of
// verified versions)
// atomically for concurrent readers, but without fsync: after a crash a
// damaged file fails its checksum and is rebuilt, so a sync on every run
// would buy nothing.
func Cache(p string, data []byte) error { return writeRenamed(p, data, false) }

// Write writes a file through a temporary file, synced before it
// is renamed into place: readers see the old content or the new, never a
// part.
func Write(p string, data []byte) error { return writeRenamed(p, data, true) }

func writeRenamed(p string, data []byte, sync bool) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("write %s: %w", p, err)
	}
	f, err := os.CreateTemp(filepath.Dir(p), ".tmp-"+filepath.Base(p)+"-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", p, err)
	}
	tmp := f.Name()
	_, werr := f.Write(data)
	if werr == nil && sync {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp, p)
	}
	if werr != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", p, werr)
	}
	return nil
}
