package gitindex

import (
	"encoding/binary"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"
)

// ErrCorrupt is returned when the store cannot be read.
var ErrCorrupt = errors.New("index is corrupt or unreadable")

// Store is the durable Badger database. Only the indexer opens it, while it
// holds the index lock; queries read segments instead.
type Store struct {
	db *badger.DB
}

// OpenStore opens (creating if needed) the Badger database in indexDir/db
// and checks its schema version.
func OpenStore(indexDir string) (*Store, error) {
	dir := filepath.Join(indexDir, "db")
	opts := badger.DefaultOptions(dir).
		WithLogger(nil).
		WithNumVersionsToKeep(1).
		WithValueLogFileSize(64 << 20).
		WithMemTableSize(32 << 20).
		// Records and vectors stay in the LSM tree, where blocks are
		// compressed (the value log is not): the store is kept small.
		WithValueThreshold(1 << 20).
		WithCompression(options.ZSTD).
		WithNumCompactors(2)
	db, err := badger.Open(opts)
	if err != nil {
		if strings.Contains(err.Error(), "Cannot acquire directory lock") {
			return nil, fmt.Errorf("open index %s: another process holds it: %w", dir, err)
		}
		return nil, fmt.Errorf("open index %s: %w: %v", dir, ErrCorrupt, err)
	}
	s := &Store{db: db}
	if err := s.checkSchema(); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

func (s *Store) checkSchema() error {
	return s.db.Update(func(txn *badger.Txn) error {
		item, err := txn.Get(keySchema)
		if errors.Is(err, badger.ErrKeyNotFound) {
			return txn.Set(keySchema, binary.AppendUvarint(nil, SchemaVersion))
		}
		if err != nil {
			return fmt.Errorf("read schema version: %w: %v", ErrCorrupt, err)
		}
		return item.Value(func(v []byte) error {
			got, n := binary.Uvarint(v)
			if n <= 0 {
				return fmt.Errorf("read schema version: %w", ErrCorrupt)
			}
			if got != SchemaVersion {
				return fmt.Errorf("%w: the index was written with schema %d, this git-bcindex uses %d", ErrSchema, got, SchemaVersion)
			}
			return nil
		})
	})
}

// Close closes the database.
func (s *Store) Close() error {
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("close index: %w", err)
	}
	return nil
}

// Blob returns the stored record of a blob, or nil if there is none.
func (s *Store) Blob(sha [20]byte) (*BlobRecord, error) {
	var rec *BlobRecord
	err := s.db.View(func(txn *badger.Txn) error {
		item, err := txn.Get(blobKey(sha))
		if errors.Is(err, badger.ErrKeyNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		return item.Value(func(v []byte) error {
			r, err := decodeBlobRecord(v)
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
	err := s.db.View(func(txn *badger.Txn) error {
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

// GetEach looks every key up in one read transaction and calls fn with the
// index of each key that is present and a value valid only during the call.
func (s *Store) GetEach(keys [][]byte, fn func(i int, v []byte) error) error {
	err := s.db.View(func(txn *badger.Txn) error {
		for i, k := range keys {
			item, err := txn.Get(k)
			if errors.Is(err, badger.ErrKeyNotFound) {
				continue
			}
			if err != nil {
				return fmt.Errorf("read %q: %w", k, err)
			}
			if err := item.Value(func(v []byte) error { return fn(i, v) }); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("read store: %w", err)
	}
	return nil
}

// Batch buffers writes; Flush makes them durable together.
type Batch struct {
	wb *badger.WriteBatch
}

// NewBatch starts a write batch.
func (s *Store) NewBatch() *Batch { return &Batch{wb: s.db.NewWriteBatch()} }

// PutBlob records a blob.
func (b *Batch) PutBlob(sha [20]byte, rec *BlobRecord) error {
	if err := b.wb.Set(blobKey(sha), rec.encode()); err != nil {
		return fmt.Errorf("write blob record %x: %w", sha, err)
	}
	return nil
}

// Put writes a raw key.
func (b *Batch) Put(key, value []byte) error {
	if err := b.wb.Set(key, value); err != nil {
		return fmt.Errorf("write %q: %w", key, err)
	}
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
	lsm, vlog := s.db.Size()
	return lsm + vlog
}
