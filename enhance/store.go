package enhance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/bcindex/bcindex/store"
	"github.com/bcindex/bcindex/store/storewrite"
)

// Store keeps summaries in the index's Badger database. It opens the
// database only for a moment, under the index lock, to read or write, so
// that indexing (a hook, a search indexing new blobs) is held up by one
// write at most, never by a model thinking.
type Store struct {
	IndexDir string
	LockWait time.Duration // for a running indexer; 0: two minutes
}

// with runs fn on the open store under the index lock.
func (s Store) with(ctx context.Context, fn func(*storewrite.Store) error) error {
	wait := s.LockWait
	if wait == 0 {
		wait = 2 * time.Minute
	}
	return s.withWait(ctx, wait, fn)
}

func (s Store) withWait(ctx context.Context, wait time.Duration, fn func(*storewrite.Store) error) error {
	return storewrite.WithLocked(ctx, s.IndexDir, wait, fn)
}

// Done returns the content hashes model has summarised under the current
// prompt version. Without an index database there are none, and none is
// created: a dry run writes nothing.
func (s Store) Done(ctx context.Context, model string) (map[[16]byte]bool, error) {
	out := map[[16]byte]bool{}
	if _, err := os.Stat(filepath.Join(s.IndexDir, "db")); errors.Is(err, fs.ErrNotExist) {
		return out, nil
	}
	err := s.with(ctx, func(st *storewrite.Store) (err error) {
		out, err = st.SummaryHashes(PromptVersion, model)
		return err
	})
	return out, err
}

// Get returns the summaries of hashes by model that are stored.
func (s Store) Get(ctx context.Context, model string, hashes [][16]byte) (map[[16]byte]Record, error) {
	return s.get(ctx, model, hashes, s.with)
}

// Peek is Get for a search: it never waits for an indexer and never
// creates a database; then it finds nothing.
func (s Store) Peek(ctx context.Context, model string, hashes [][16]byte) (map[[16]byte]Record, error) {
	if _, err := os.Stat(filepath.Join(s.IndexDir, "db")); err != nil || len(hashes) == 0 {
		return nil, nil
	}
	noWait := func(ctx context.Context, fn func(*storewrite.Store) error) error { return s.withWait(ctx, 0, fn) }
	recs, err := s.get(ctx, model, hashes, noWait)
	if errors.Is(err, store.ErrLocked) {
		return nil, nil
	}
	return recs, err
}

func (s Store) get(ctx context.Context, model string, hashes [][16]byte, with func(context.Context, func(*storewrite.Store) error) error) (map[[16]byte]Record, error) {
	out := map[[16]byte]Record{}
	err := with(ctx, func(st *storewrite.Store) error {
		for _, h := range hashes {
			v, err := st.Get(storewrite.SummaryKey(h, PromptVersion, model))
			if err != nil {
				return err
			}
			if v == nil {
				continue
			}
			var r Record
			if err := json.Unmarshal(v, &r); err != nil {
				return fmt.Errorf("summary %x: %w: %v", h, store.ErrCorrupt, err)
			}
			out[h] = r
		}
		return nil
	})
	return out, err
}

// Put stores summaries durably, all or none.
func (s Store) Put(ctx context.Context, model string, sums map[[16]byte]Summary) error {
	if len(sums) == 0 {
		return nil
	}
	return s.with(ctx, func(st *storewrite.Store) error {
		b := st.NewBatch()
		for h, sum := range sums {
			if err := b.Put(storewrite.SummaryKey(h, PromptVersion, model), encodeRecord(sum, model)); err != nil {
				b.Cancel()
				return fmt.Errorf("store summaries: %w", err)
			}
		}
		if err := b.Flush(); err != nil {
			return fmt.Errorf("store summaries: %w", err)
		}
		return nil
	})
}
