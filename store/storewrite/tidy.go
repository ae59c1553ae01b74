package storewrite

import (
	"bytes"
	"fmt"
	"path/filepath"

	"github.com/dgraph-io/badger/v4"

	"github.com/bcindex/bcindex/store"
)

// maxLogFiles is how many value-log files a store may have before an
// indexing run tidies it (TidyLog). Badger starts a log file at every open
// and keeps every file open and mapped, so without tidying a repository
// would gain a file per hook run.
const maxLogFiles = 32

// TidyFloor is how many dead bytes the value log must hold before an
// indexing run rewrites it for them: one log file. Tests lower it.
var TidyFloor int64 = 64 << 20

// An indexing run rewrites the log when more than tidyShare of it is dead.
const tidyShare = 1.0 / 3

// rewriteRatio is the share of a log file that must be dead for a rewrite
// (gc's or an indexing run's) to take it. Badger's RunValueLogGC picks the
// file with the most dead bytes and stops, rewriting nothing, when that
// file's dead share is below the ratio: one large file with a quarter of
// it dead (the vectors of a merged segment beside those of the segment it
// merged into) kept every smaller, wholly dead file, so a whole history
// run ended with 560 MB of a 1,230 MB log dead. So low a ratio takes
// every file with dead values, most dead first: the log is rewritten down
// to what is live, and a tidied log never qualifies again. The copying
// costs about what the live values of those files hold (5.7 s for that
// log), and a run pays it only when a third of the log is dead.
const rewriteRatio = 0.01

// TidyLog reclaims the value log (RewriteLog, which first compacts the
// tree so that Badger learns which log bytes merges left dead) for the
// live segments ids when it has grown past maxLogFiles files, or when
// more than TidyFloor and more than a third of it is dead (DeadLogBytes):
// a merge copies the vectors of the segments it merges, so without this a
// long history run leaves the vectors of merged segments in the log until
// gc. The caller holds the index lock and no store is open. It returns how
// many log files were rewritten.
func TidyLog(indexDir string, ids []string) (int, error) {
	return tidyLog(indexDir, ids, tidyShare)
}

// ReclaimLog is TidyLog without the share: the log is rewritten when more
// than TidyFloor of it is dead, however large the log. The last run of a
// history index ends with it: the share keeps each run's tidy rare, but
// git's whole history ended with a quarter of its 900 MB log dead, which
// only gc reclaimed.
func ReclaimLog(indexDir string, ids []string) (int, error) {
	return tidyLog(indexDir, ids, 0)
}

// tidyLog is TidyLog with the dead share share.
func tidyLog(indexDir string, ids []string, share float64) (int, error) {
	names, _ := filepath.Glob(filepath.Join(indexDir, "db", "*.vlog"))
	if len(names) > maxLogFiles {
		return RewriteLog(indexDir, ids)
	}
	// Below both bounds, the database is not even opened.
	floor := max(TidyFloor, int64(share*float64(store.LogBytes(indexDir))))
	dead, err := DeadLogBytes(indexDir, ids, floor)
	if err != nil || dead <= floor {
		return 0, err
	}
	return RewriteLog(indexDir, ids)
}

// DeadLogBytes estimates what of the value log no live value holds: the
// log's size less the live segments' vector parts (their locators) and
// less the records Badger keeps in the log (values of valueThreshold and
// more: blob records of very many chunks, which only a store written before
// records left their chunks out has). The caller holds the index lock
// and no store is open. When the log beyond the vectors is at most floor,
// it returns that without opening the database: then the dead bytes are
// no more.
func DeadLogBytes(indexDir string, ids []string, floor int64) (int64, error) {
	_, vectors := store.VectorBytes(indexDir, ids)
	beyond := store.LogBytes(indexDir) - vectors
	if beyond <= floor {
		return max(0, beyond), nil
	}
	records, err := LogRecordBytes(indexDir)
	if err != nil {
		return 0, err
	}
	return max(0, beyond-records), nil
}

// LogRecordBytes is how many bytes of the value log the live values other
// than vector parts take: the database is opened read-only and its keys
// walked without reading a value; Badger's value pointers give each
// value's size in the log. The caller holds the index lock and no store is
// open.
func LogRecordBytes(indexDir string) (int64, error) {
	db, err := openBadgerWith(badger.Open, storeOptions(indexDir).WithReadOnly(true), false)
	if err != nil {
		return 0, fmt.Errorf("size index log records: %w", err)
	}
	var n int64
	err = db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{PrefetchValues: false})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			item := it.Item()
			if bytes.HasPrefix(item.Key(), prefParts) {
				continue
			}
			// A value is in the log when it is at least the threshold
			// long; ValueSize estimates a logged value's header, hence
			// the margin. EstimatedSize is then the whole log entry.
			if item.ValueSize() >= valueThreshold-16 {
				n += item.EstimatedSize()
			}
		}
		return nil
	})
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, fmt.Errorf("size index log records: %w", err)
	}
	return n, nil
}
