package storewrite

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/dgraph-io/badger/v4"
)

// PrefSummary starts the keys of generated chunk summaries (schema.go).
var PrefSummary = []byte("e/")

// SummaryKey is the key of the summary that model wrote, under prompt
// version prompt, of the chunk text whose content hash is hash.
func SummaryKey(hash [16]byte, prompt int, model string) []byte {
	k := make([]byte, 0, len(PrefSummary)+16+binary.MaxVarintLen64+len(model))
	k = append(append(k, PrefSummary...), hash[:]...)
	k = binary.AppendUvarint(k, uint64(prompt))
	return append(k, model...)
}

// SummaryHashes returns the content hashes that have a summary by model
// under prompt version prompt.
func (s *Store) SummaryHashes(prompt int, model string) (map[[16]byte]bool, error) {
	out := map[[16]byte]bool{}
	err := s.scanSummaries(prompt, model, false, func(h [16]byte, _ *badger.Item) error {
		out[h] = true
		return nil
	})
	return out, err
}

// Summaries calls fn with the content hash and stored value of every
// summary by model under prompt version prompt.
func (s *Store) Summaries(prompt int, model string, fn func(hash [16]byte, value []byte) error) error {
	return s.scanSummaries(prompt, model, true, func(h [16]byte, it *badger.Item) error {
		v, err := it.ValueCopy(nil)
		if err != nil {
			return err
		}
		return fn(h, v)
	})
}

// scanSummaries calls fn with each summary key's content hash and item,
// for model under prompt version prompt; values says whether fn reads them.
func (s *Store) scanSummaries(prompt int, model string, values bool, fn func([16]byte, *badger.Item) error) error {
	err := s.DB.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: PrefSummary, PrefetchValues: values, PrefetchSize: 64})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			k := it.Item().Key()[len(PrefSummary):]
			if len(k) < 17 {
				continue
			}
			p, n := binary.Uvarint(k[16:])
			if n <= 0 || p != uint64(prompt) || !bytes.Equal(k[16+n:], []byte(model)) {
				continue
			}
			if err := fn([16]byte(k[:16]), it.Item()); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("read summaries: %w", err)
	}
	return nil
}

// DeleteSummariesExcept deletes the summaries, by every model and prompt
// version, of the content hashes keep rejects (gc: texts no indexed
// revision holds any more), and returns how many.
func (s *Store) DeleteSummariesExcept(keep func(hash [16]byte) bool) (int, error) {
	var dead [][]byte
	err := s.eachSummaryKey(func(k []byte) {
		if len(k) < len(PrefSummary)+16 || !keep([16]byte(k[len(PrefSummary):])) {
			dead = append(dead, append([]byte(nil), k...))
		}
	})
	if err == nil {
		err = s.DeleteKeys(dead)
	}
	if err != nil {
		return 0, fmt.Errorf("delete summaries: %w", err)
	}
	return len(dead), nil
}

// SummaryHashesAll returns the content hashes that have a summary by any
// model under any prompt version.
func (s *Store) SummaryHashesAll() (map[[16]byte]bool, error) {
	out := map[[16]byte]bool{}
	err := s.eachSummaryKey(func(k []byte) {
		if len(k) >= len(PrefSummary)+16 {
			out[[16]byte(k[len(PrefSummary):])] = true
		}
	})
	if err != nil {
		return nil, fmt.Errorf("read summaries: %w", err)
	}
	return out, nil
}

// eachSummaryKey calls fn with every summary key, valid only during the call.
func (s *Store) eachSummaryKey(fn func(key []byte)) error {
	return s.DB.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: PrefSummary})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			fn(it.Item().Key())
		}
		return nil
	})
}

// DeleteKeys deletes keys in one write batch.
func (s *Store) DeleteKeys(keys [][]byte) error {
	if len(keys) == 0 {
		return nil
	}
	wb := s.DB.NewWriteBatch()
	for _, k := range keys {
		if err := wb.Delete(k); err != nil {
			wb.Cancel()
			return err
		}
	}
	return wb.Flush()
}
