package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/bcindex/bcindex/segment"
	"github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"
	"github.com/dgraph-io/badger/v4/table"
	"github.com/dgraph-io/ristretto/v2/z"
)

// CheckBadger examines the Badger database in dir as badger.Open would,
// but in the calling goroutine. Badger opens its tables in goroutines of
// its own, where a truncated or garbled table panics beyond the reach of
// any recover and takes the process down with a goroutine dump; here every
// failure, panics included, is an error wrapping ErrCorrupt. Every block's
// checksum is verified too (Badger checks only the tables' indexes when it
// opens them, and a block only when a read needs it, which an indexing run
// with nothing new never does): with full, in every table; otherwise in
// each table whose version has not passed before (the record is kept as a
// segment's is, verified.go; a table is never written once complete, so
// this reads each table once, and again only after something wrote to it).
func CheckBadger(dir string, full bool) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: %v", ErrCorrupt, r)
		}
	}()
	f, err := os.Open(filepath.Join(dir, badger.ManifestFilename))
	if errors.Is(err, fs.ErrNotExist) {
		if tables, _ := filepath.Glob(filepath.Join(dir, "*.sst")); len(tables) > 0 {
			return fmt.Errorf("%w: Badger MANIFEST missing beside %d tables", ErrCorrupt, len(tables))
		}
		return nil // a new database
	}
	if err != nil {
		return fmt.Errorf("read Badger MANIFEST: %w", err)
	}
	// A write-ahead or value log file that was created but never written
	// (the disk filled up, the process died) stops badger.Open.
	for _, pat := range []string{"*.mem", "*.vlog"} {
		logs, _ := filepath.Glob(filepath.Join(dir, pat))
		for _, p := range logs {
			if fi, err := os.Stat(p); err == nil && fi.Size() == 0 {
				f.Close()
				return fmt.Errorf("%w: Badger log %s is empty", ErrCorrupt, filepath.Base(p))
			}
			if err := CheckLogHeader(p); err != nil {
				f.Close()
				return err
			}
		}
	}
	m, _, err := badger.ReplayManifestFile(f, 0, badger.DefaultOptions(dir))
	f.Close()
	if err != nil {
		return fmt.Errorf("%w: Badger MANIFEST: %v", ErrCorrupt, err)
	}
	ids := make([]uint64, 0, len(m.Tables))
	for id := range m.Tables {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	names := make([]string, len(ids))
	for i, id := range ids {
		names[i] = filepath.Base(table.NewFilename(id, dir))
	}
	return segment.VerifyOnce(dir, names, full, func(i int, verify bool) error {
		return checkTable(table.NewFilename(ids[i], dir), m.Tables[ids[i]].Compression, verify)
	})
}

// checkTable opens one table read-only and reads its index (and with full,
// verifies every block).
func checkTable(name string, c options.CompressionType, full bool) (err error) {
	mf, err := z.OpenMmapFile(name, os.O_RDONLY, 0)
	if err != nil {
		if mf != nil {
			unmapReadOnly(mf)
		}
		return fmt.Errorf("%w: Badger table %s: %v", ErrCorrupt, filepath.Base(name), err)
	}
	opened := false
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: Badger table %s is truncated or garbled", ErrCorrupt, filepath.Base(name))
		}
		if !opened || err != nil {
			unmapReadOnly(mf)
		}
	}()
	opts := table.Options{ReadOnly: true, Compression: c, BlockSize: 4 << 10, ChkMode: options.NoVerification}
	if full {
		opts.ChkMode = options.OnTableRead
	}
	t, err := table.OpenTable(mf, opts)
	if err != nil {
		return fmt.Errorf("%w: Badger table %s: %v", ErrCorrupt, filepath.Base(name), err)
	}
	opened = true
	// Close the mapping, not the table: a table's last DecrRef deletes its file.
	return unmapReadOnly(t.MmapFile)
}

// unmapReadOnly closes a read-only mapping. z.MmapFile.Close syncs the
// mapping first, which flushes the disk's cache once per table (~0.5–1 ms
// each) though nothing here wrote to it.
func unmapReadOnly(mf *z.MmapFile) error {
	if mf.Fd == nil {
		return nil
	}
	err := z.Munmap(mf.Data)
	if cerr := mf.Fd.Close(); err == nil {
		err = cerr
	}
	return err
}

// CheckLogHeader checks the header Badger writes at the start of each log
// file: the ID of its encryption key, then the base IV. The store is not
// encrypted, so the key ID is 0; any other value (bytes flipped there)
// makes badger.Open refuse the whole database with "Invalid datakey id",
// which no table check would find.
func CheckLogHeader(p string) error {
	f, err := os.Open(p)
	if err != nil {
		return fmt.Errorf("%w: Badger log %s: %v", ErrCorrupt, filepath.Base(p), err)
	}
	defer f.Close()
	var h [8]byte
	if _, err := io.ReadFull(f, h[:]); err != nil {
		return fmt.Errorf("%w: Badger log %s: header: %v", ErrCorrupt, filepath.Base(p), err)
	}
	if binary.BigEndian.Uint64(h[:]) != 0 {
		return fmt.Errorf("%w: Badger log %s: damaged header", ErrCorrupt, filepath.Base(p))
	}
	return nil
}
