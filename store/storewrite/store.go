package storewrite

import (
	"encoding/binary"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/bcindex/bcindex/store"
	"github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"
)

// Store is the durable Badger database. Only the indexer opens it, while it
// holds the index lock; queries read segments instead.
type Store struct {
	DB      *badger.DB
	opts    badger.Options
	written atomic.Int64 // bytes of keys and values written since open

	mu    sync.Mutex
	wrote []wroteParts // vector parts written since open (recordWritten)
}

// compactAfter is how many bytes a session writes before Close compacts
// level 0 of the tree: a large run (a full index) pays for compacting what
// it wrote, instead of leaving large level-0 tables for the next small run
// (a hook) to compact.
const compactAfter = 16 << 20

// OpenStore opens (creating if needed) the Badger database in indexDir/db
// and checks its schema version.
func OpenStore(indexDir string) (*Store, error) { return openStore(indexDir, true) }

// OpenCheckedStore is OpenStore for an indexing run that has just passed
// SetDamagedAside under the index lock it still holds: nothing has written
// the database since its tables were checked, so they are not examined a
// second time (on a small run, each pass over the tables cost as much as
// opening them).
func OpenCheckedStore(indexDir string) (*Store, error) { return openStore(indexDir, false) }

// storeOptions are the Badger options of the database in indexDir/db.
func storeOptions(indexDir string) badger.Options {
	return badger.DefaultOptions(filepath.Join(indexDir, "db")).
		WithLogger(nil).
		WithNumVersionsToKeep(1).
		WithValueLogFileSize(64 << 20).
		WithMemTableSize(32 << 20).
		// Vector parts (vlog.go), padded to the threshold, go to the
		// value log, where queries map them; records stay in the tree
		// unless a file has very many chunks. Blocks are not compressed:
		// compression made compactions CPU-bound.
		WithValueThreshold(valueThreshold).
		WithVerifyValueChecksum(true).
		WithCompression(options.None).
		// A block whose checksum fails is an error, never garbage
		// decoded as a record or a vector.
		WithChecksumVerificationMode(options.OnBlockRead).
		WithNumCompactors(2).
		// Every run opens each table (and checks it first) and closes it,
		// and closing syncs it: a flush of the disk's cache per table.
		// 16 MB tables instead of 2 MB make a Kubernetes-size store 5
		// tables instead of 34, and a branch run's wait for the close
		// 12–45 ms instead of 50–100 (bench/README.md).
		WithBaseTableSize(16 << 20)
}

func openStore(indexDir string, check bool) (*Store, error) {
	opts := storeOptions(indexDir)
	db, err := openBadger(opts, check)
	if err != nil {
		return nil, err
	}
	s := &Store{DB: db, opts: opts}
	if err := s.checkSchema(); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

func (s *Store) checkSchema() error {
	return s.DB.Update(func(txn *badger.Txn) error {
		item, err := txn.Get(store.KeySchema)
		if errors.Is(err, badger.ErrKeyNotFound) {
			return txn.Set(store.KeySchema, binary.AppendUvarint(nil, store.SchemaVersion))
		}
		if err != nil {
			return fmt.Errorf("read schema version: %w: %v", store.ErrCorrupt, err)
		}
		return item.Value(func(v []byte) error {
			got, n := binary.Uvarint(v)
			if n <= 0 {
				return fmt.Errorf("read schema version: %w", store.ErrCorrupt)
			}
			if got != store.SchemaVersion {
				return fmt.Errorf("%w: the index was written with schema %d, this git-bcindex uses %d", store.ErrSchema, got, store.SchemaVersion)
			}
			return nil
		})
	})
}

func openBadger(opts badger.Options, check bool) (*badger.DB, error) {
	return openBadgerWith(badger.Open, opts, check)
}

// badgerOpens counts the Badger databases this process opened.
var badgerOpens atomic.Int64

// BadgerOpens returns how many times this process opened a Badger
// database, so that tests can check that a command which does not read
// Badger (grep, log -S, --version) leaves it closed.
func BadgerOpens() int64 { return badgerOpens.Load() }

func openBadgerWith(open func(badger.Options) (*badger.DB, error), opts badger.Options, check bool) (*badger.DB, error) {
	badgerOpens.Add(1)
	if check {
		if err := store.CheckBadger(opts.Dir, false); err != nil {
			return nil, fmt.Errorf("open index %s: %w", opts.Dir, err)
		}
	}
	db, err := open(opts)
	if err != nil {
		if strings.Contains(err.Error(), "Cannot acquire directory lock") {
			return nil, fmt.Errorf("open index %s: another process holds it: %w", opts.Dir, err)
		}
		return nil, fmt.Errorf("open index %s: %w: %v", opts.Dir, store.ErrCorrupt, err)
	}
	return db, nil
}

// Close closes the database. When this session wrote more than compactAfter
// bytes, it then opens it once more to close it with level 0 compacted
// (Badger compacts level 0 only on close or once it holds several tables).
func (s *Store) Close() error {
	if err := s.DB.Close(); err != nil {
		return fmt.Errorf("close index: %w", err)
	}
	if s.written.Load() > compactAfter {
		if err := compactTree(s.opts, false); err != nil {
			return err
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.recordWritten()
	return nil
}

// Blob returns the stored record of a blob, or nil if there is none.
func (s *Store) Blob(sha [20]byte) (*store.BlobRecord, error) {
	var rec *store.BlobRecord
	err := s.DB.View(func(txn *badger.Txn) error {
		item, err := txn.Get(store.BlobKey(sha))
		if errors.Is(err, badger.ErrKeyNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		return item.Value(func(v []byte) error {
			r, err := store.DecodeBlobRecord(v)
			rec = r
			return err
		})
	})
	if err != nil {
		return nil, fmt.Errorf("read blob record %x: %w", sha, err)
	}
	return rec, nil
}

// Get returns a copy of the value at key, or nil if absent.
func (s *Store) Get(key []byte) ([]byte, error) {
	var out []byte
	err := s.DB.View(func(txn *badger.Txn) error {
		item, err := txn.Get(key)
		if errors.Is(err, badger.ErrKeyNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		out, err = item.ValueCopy(nil)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("read %q: %w", key, err)
	}
	return out, nil
}

// Batch buffers writes; Flush makes them durable together.
type Batch struct {
	wb    *badger.WriteBatch
	store *Store
}

// NewBatch starts a write batch.
func (s *Store) NewBatch() *Batch { return &Batch{wb: s.DB.NewWriteBatch(), store: s} }

// PutBlob records a blob.
func (b *Batch) PutBlob(sha [20]byte, rec *store.BlobRecord) error {
	key, value := store.BlobKey(sha), rec.Encode()
	if err := b.wb.Set(key, value); err != nil {
		return fmt.Errorf("write blob record %x: %w", sha, err)
	}
	b.store.written.Add(int64(len(key) + len(value)))
	return nil
}

// Put writes a raw key.
func (b *Batch) Put(key, value []byte) error {
	if err := b.wb.Set(key, value); err != nil {
		return fmt.Errorf("write %q: %w", key, err)
	}
	b.store.written.Add(int64(len(key) + len(value)))
	return nil
}

// Flush commits the batch.
func (b *Batch) Flush() error {
	if err := b.wb.Flush(); err != nil {
		return fmt.Errorf("flush index writes: %w", err)
	}
	return nil
}

// Cancel drops the batch.
func (b *Batch) Cancel() { b.wb.Cancel() }

// Size returns the store's size on disk (LSM + value log).
func (s *Store) Size() int64 {
	lsm, vlog := s.DB.Size()
	return lsm + vlog
}
