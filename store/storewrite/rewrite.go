package storewrite

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/bcindex/bcindex/segment"
	"github.com/dgraph-io/badger/v4"
)

// RewriteLog opens the store (no other may be open; the caller holds the
// index lock) and reclaims what deleted values (vector parts of merged or
// dropped segments, records of dead blobs) hold in Badger's value log. The
// tree is compacted first, so that Badger knows which log bytes are dead;
// then each log file that holds dead values (rewriteRatio) has its live
// values rewritten at the head of the log and is removed. The locators of the live segments ids
// are pointed at the parts' new places before any old file goes: an open
// iterator holds Badger's removals back until then. A query that mapped a
// removed file meanwhile gets vector.ErrFault and opens the segments again.
// A locator that cannot be pointed anew (relocate) still names a removed
// file once the rewrite ends, which makes its segment damaged. It returns
// how many log files were rewritten.
func RewriteLog(indexDir string, ids []string) (int, error) {
	if err := compactTree(storeOptions(indexDir), true); err != nil {
		return 0, err
	}
	st, err := OpenStore(indexDir)
	if err != nil {
		return 0, err
	}
	n, err := st.rewriteLog(indexDir, ids)
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	return n, err
}

// compactTree opens the database only to compact it: level 0 as it closes,
// then, when flatten, every level into the last in a second session
// (closing compacts only the level-0 tables that overlap the oldest, and
// Flatten does nothing while level 0 alone holds tables).
func compactTree(opts badger.Options, flatten bool) error {
	if err := compactSession(opts, false); err != nil || !flatten {
		return err
	}
	return compactSession(opts, true)
}

// compactSession is one session of compactTree. A compaction drops the
// versions a deletion or an overwrite left dead, and records their log
// bytes as discardable, only at or below the discard timestamp. Opened
// normally, Badger takes that timestamp from its read watermark, which a
// goroutine of its own advances to the newest version some time after
// open: a compaction that ran first (seen under load) kept every dead
// version, and no log file was rewritten. Opened managed, the timestamp is
// set here, before any compaction, to the newest version: nothing else
// reads this session, so every older version may go.
func compactSession(opts badger.Options, flatten bool) error {
	db, err := openBadgerWith(badger.OpenManaged, opts.WithCompactL0OnClose(true), true)
	if err != nil {
		return fmt.Errorf("compact index: %w", err)
	}
	db.SetDiscardTs(db.MaxVersion())
	if flatten {
		err = db.Flatten(1)
	}
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("compact index: %w", err)
	}
	return nil
}

// rewriteLog is RewriteLog on an open store whose tree is compacted.
func (s *Store) rewriteLog(indexDir string, ids []string) (int, error) {
	txn := s.DB.NewTransaction(false)
	it := txn.NewIterator(badger.IteratorOptions{PrefetchValues: false})
	n := 0
	var err error
	for {
		gerr := s.DB.RunValueLogGC(rewriteRatio)
		// Badger read the file and wrote its live values through its
		// mappings, which it keeps until the iterator closes: their
		// pages would stay resident for the whole rewrite.
		dropMappedPages(s.opts.Dir)
		if gerr != nil {
			if !errors.Is(gerr, badger.ErrNoRewrite) && !errors.Is(gerr, badger.ErrRejected) {
				err = fmt.Errorf("rewrite index log: %w", gerr)
			}
			break
		}
		n++
	}
	if n > 0 && err == nil {
		if err = s.DB.Sync(); err == nil {
			err = s.relocate(indexDir, ids)
		}
		if err != nil {
			err = fmt.Errorf("rewrite index log: %w", err)
		}
	}
	it.Close() // Badger removes the rewritten files now
	txn.Discard()
	return n, err
}

// relocate rewrites the locators of segments ids whose parts moved. A
// locator that fails (its parts not found, its write refused) is left
// naming the files about to go, and the others are rewritten all the
// same: Badger removes the files whatever relocate returns, and a segment
// whose locator names a removed file is damaged (left out of every
// search, reported by check, indexed again by the next run), so one
// failure must not cost the segments after it. It returns the first error
// and how many locators failed.
func (s *Store) relocate(indexDir string, ids []string) error {
	var first error
	failed := 0
	for _, id := range ids {
		names, _ := segment.VectorFiles(indexDir, id)
		for _, name := range names {
			if err := s.relocateFile(indexDir, id, name); err != nil {
				if first == nil {
					first = err
				}
				failed++
			}
		}
	}
	if failed > 1 {
		return fmt.Errorf("%w (%d vector locators not rewritten)", first, failed)
	}
	return first
}

// relocateFile rewrites segment id's locator of the named vector file if
// its parts moved.
func (s *Store) relocateFile(indexDir, id, name string) error {
	dir := segment.Dir(indexDir, id)
	l, err := segment.ReadLocator(filepath.Join(dir, name))
	if err != nil {
		return nil // damaged: the next run drops the segment
	}
	locs, err := s.findParts(id, name, l)
	if err != nil {
		return err
	}
	dropMappedPages(s.opts.Dir) // findParts read the parts through Badger's mappings
	if slices.Equal(locs, l.Parts) {
		return nil // in a log file this session left alone
	}
	moved := *l
	moved.Parts = locs
	if err := segment.WriteLocator(dir, name, &moved); err != nil {
		return fmt.Errorf("relocate vectors of segment %s: %w", id, err)
	}
	s.mu.Lock()
	s.wrote = append(s.wrote, wroteParts{id, name, locs})
	s.mu.Unlock()
	return nil
}

// findParts looks up where the parts a locator lists are now, checking
// each against the bytes it had where the locator said.
func (s *Store) findParts(id, name string, l *segment.Locator) ([]segment.PartLoc, error) {
	parts := make([][]byte, len(l.Parts))
	sizes := make([]int64, len(l.Parts))
	err := s.DB.View(func(txn *badger.Txn) error {
		for i := range l.Parts {
			item, err := txn.Get(partKey(l.Parts[i].Owner, name, l.Parts[i].Part))
			if err != nil {
				return err
			}
			if parts[i], err = item.ValueCopy(nil); err != nil {
				return err
			}
			sizes[i] = l.Parts[i].Len
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("relocate vectors of segment %s: %w", id, err)
	}
	return s.locateKeys(id, name, l.Parts, parts, sizes)
}
