package storewrite

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"

	"github.com/dgraph-io/badger/v4"

	"github.com/bcindex/bcindex/segment"
	"github.com/bcindex/bcindex/store"
	"github.com/bcindex/bcindex/vector"
)

// Vectors live in Badger once: each segment's vectors of one model are
// stored as parts (package vector's segment format, PartRows rows each)
// under "s/<segment>/<vector file name>/<part>", values large enough to go
// to Badger's value log. A query maps them there, where Badger wrote them:
// the segment's locator file (locator.go) says in which log file and at
// which offset each part's bytes lie. Readers never open Badger.
//
// Badger's log files are append-only: a value never moves while its file
// exists. Files are removed only by value-log garbage collection (gc), which
// first rewrites the live values at the head of the log; gc then points
// the locators at the new places before Badger deletes the old file (see
// RewriteLog).

// valueThreshold is the size from which Badger keeps a value in its value
// log rather than in the tree; vector parts are padded to it.
const valueThreshold = 8 << 10

// MinPart is the size a vector part is padded to, so that Badger keeps it
// in the value log, where queries can map it.
const MinPart = valueThreshold

var prefParts = []byte("s/")

// partKey is the key of part i of a segment's vectors in the named file.
func partKey(seg, name string, i int) []byte {
	k := make([]byte, 0, len(prefParts)+len(seg)+len(name)+4)
	k = append(k, prefParts...)
	k = append(k, seg...)
	k = append(k, '/')
	k = append(k, name...)
	k = append(k, '/')
	return binary.BigEndian.AppendUint16(k, uint16(i))
}

// segmentOfPartKey returns the segment ID of a part key.
func segmentOfPartKey(k []byte) (string, bool) {
	rest, ok := bytes.CutPrefix(k, prefParts)
	if !ok {
		return "", false
	}
	seg, _, ok := bytes.Cut(rest, []byte("/"))
	return string(seg), ok
}

// PutVectorPart adds part i of a segment's vectors for the named vector
// file. The entries of one batch reach Badger's log in no fixed order (a
// transaction holds them in a map), so a writer that wants each part at
// the same place of the log on every run, given the same writes before,
// flushes the parts one batch each, in order.
func (b *Batch) PutVectorPart(seg, name string, i int, part []byte) error {
	if i >= 1<<16 {
		return fmt.Errorf("write vectors of segment %s: part %d", seg, i)
	}
	return b.Put(partKey(seg, name, i), part)
}

// DropMappedPages takes this process's pages of the index's mapped files
// (the database's and the segments') out of its resident set
// (dropMappedPages). Badger writes a vector part through its mapping of
// the log file and keeps the file mapped while the store is open, and an
// indexing run keeps the live segments mapped to look blobs up: a writer
// calls this after each part it flushed, so that the parts a run writes
// (a merge of git's history writes up to 140 MB of them) and the pages
// of the segments it read do not all stay resident until it ends.
func (s *Store) DropMappedPages() { dropMappedPages(filepath.Dir(s.opts.Dir)) }

// PutVectorParts adds a segment's vector parts for the named vector file.
// Badger keeps the values until the batch is flushed: parts must not
// change meanwhile.
func (b *Batch) PutVectorParts(seg, name string, parts [][]byte) error {
	if len(parts) > 1<<16 {
		return fmt.Errorf("write vectors of segment %s: %d parts", seg, len(parts))
	}
	for i, p := range parts {
		if err := b.Put(partKey(seg, name, i), p); err != nil {
			return err
		}
	}
	return nil
}

// LocateVectorParts returns where Badger stored the flushed parts of a
// segment's named vector file, after syncing the log so that a reader who
// finds them through a locator finds them on disk. sizes are the parts'
// lengths without padding. Each place is checked against the part's first
// bytes (its header, which holds its checksum), so a log laid out other
// than this code expects is an error, never a locator to other bytes.
func (s *Store) LocateVectorParts(seg, name string, parts [][]byte, sizes []int64) ([]segment.PartLoc, error) {
	if err := s.DB.Sync(); err != nil {
		return nil, fmt.Errorf("sync index: %w", err)
	}
	locs, err := s.locate(seg, name, parts, sizes)
	if err == nil {
		s.mu.Lock()
		s.wrote = append(s.wrote, wroteParts{seg, name, locs})
		s.mu.Unlock()
	}
	return locs, err
}

// wroteParts are vector parts this session wrote and located.
type wroteParts struct {
	seg, name string
	locs      []segment.PartLoc
}

// recordWritten records the parts this session wrote as verified, in the
// segments whose locators name them: their checksums came from the bytes
// written. It runs once Badger is closed, when the log files no longer
// change (closing truncates the last one), so that the first query after
// an indexing run does not read every new vector again. It first
// refreshes the parts' cached pages (refreshPages), all of them before any
// record: a refresh writes to a log file and so gives every part in it a
// new version.
func (s *Store) recordWritten() {
	indexDir := filepath.Dir(s.opts.Dir)
	type written struct {
		dir, name string
		regions   []vector.Region
	}
	var ws []written
	for _, w := range s.wrote {
		dir := segment.Dir(indexDir, w.seg)
		l, err := segment.ReadLocator(filepath.Join(dir, w.name))
		if err != nil || len(l.Parts) < len(w.locs) || !slices.Equal(l.Parts[:len(w.locs)], w.locs) {
			continue
		}
		// Only the parts written or moved here: a segment's own come
		// first, and those it shares with others are verified when read.
		regions := l.Regions(indexDir)[:len(w.locs)]
		for _, r := range regions {
			refreshPages(r.Path, r.Off, r.Len)
		}
		ws = append(ws, written{dir, w.name, regions})
	}
	for _, w := range ws {
		segment.RecordParts(w.dir, w.name, w.regions)
	}
	s.wrote = nil
}

func (s *Store) locate(seg, name string, parts [][]byte, sizes []int64) ([]segment.PartLoc, error) {
	keys := make([]segment.PartLoc, len(parts))
	for i := range keys {
		keys[i] = segment.PartLoc{Owner: seg, Part: i}
	}
	return s.locateKeys(seg, name, keys, parts, sizes)
}

// locateKeys is locate for parts named by keys (Owner and Part).
func (s *Store) locateKeys(seg, name string, keys []segment.PartLoc, parts [][]byte, sizes []int64) ([]segment.PartLoc, error) {
	locs := make([]segment.PartLoc, len(parts))
	logs := &logReader{dir: filepath.Dir(s.opts.Dir)}
	err := s.DB.View(func(txn *badger.Txn) error {
		for i := range parts {
			item, err := txn.Get(partKey(keys[i].Owner, name, keys[i].Part))
			if err != nil {
				return err
			}
			fid, start, err := placeOf(reflect.ValueOf(item).Elem(), parts[i], logs)
			if err != nil {
				return err
			}
			if len(parts[i]) < 24 {
				return fmt.Errorf("vector part of %d bytes", len(parts[i]))
			}
			rows := int(binary.LittleEndian.Uint64(parts[i][16:]))
			locs[i] = segment.PartLoc{Fid: fid, Off: start, Len: sizes[i], Rows: rows, Owner: keys[i].Owner, Part: keys[i].Part}
			if err := s.checkPlace(locs[i], parts[i]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("locate vectors of segment %s: %w", seg, err)
	}
	return locs, nil
}

// checkPlace reads a part's first bytes where loc says they are.
func (s *Store) checkPlace(loc segment.PartLoc, part []byte) error {
	f, err := os.Open(segment.VlogPath(filepath.Dir(s.opts.Dir), loc.Fid))
	if err != nil {
		return err
	}
	defer f.Close()
	n := min(64, len(part))
	got := make([]byte, n)
	if _, err := f.ReadAt(got, loc.Off); err != nil && err != io.EOF {
		return err
	}
	if !bytes.Equal(got, part[:n]) {
		return fmt.Errorf("value log file %d holds other bytes at %d", loc.Fid, loc.Off)
	}
	return nil
}

// DeleteSegmentVectors deletes the vector parts of the segments ids but
// those that a segment of live (the manifest's segments, after ids left
// it) shares.
func (s *Store) DeleteSegmentVectors(ids, live []string) error {
	drop := map[string]bool{}
	for _, id := range ids {
		drop[id] = true
	}
	_, err := s.deleteParts(live, func(seg string) bool { return drop[seg] })
	return err
}

// DeleteOrphanVectors deletes the vector parts of every segment not in
// live that no live segment shares: those of segments removed while the
// database was not open (a repair, a run killed between writing and
// publishing), and of merged segments once no segment shares them. It
// returns how many vectors (rows) they held.
func (s *Store) DeleteOrphanVectors(live []string) (int, error) {
	keep := map[string]bool{}
	for _, id := range live {
		keep[id] = true
	}
	return s.deleteParts(live, func(seg string) bool { return !keep[seg] })
}

// deleteParts deletes the parts of the segments drop accepts, but those
// the locators of the live segments name, and returns how many rows they
// held, read from each part's header. A live segment whose locator cannot
// be read is damaged: its parts are left until it is dropped.
func (s *Store) deleteParts(live []string, drop func(seg string) bool) (int, error) {
	named := namedParts(filepath.Dir(s.opts.Dir), live)
	var keys [][]byte
	rows := 0
	err := s.DB.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: prefParts})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			item := it.Item()
			if seg, ok := segmentOfPartKey(item.Key()); ok && drop(seg) && !named[string(item.Key())] {
				keys = append(keys, item.KeyCopy(nil))
				item.Value(func(v []byte) error {
					if len(v) >= 24 {
						rows += int(binary.LittleEndian.Uint64(v[16:]))
					}
					return nil
				})
			}
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("list vector parts: %w", err)
	}
	if len(keys) == 0 {
		return 0, nil
	}
	if err := s.DeleteKeys(keys); err != nil {
		return 0, fmt.Errorf("delete vector parts: %w", err)
	}
	return rows, nil
}

// namedParts are the keys of the parts the locators of segments ids name:
// their own and those they share.
func namedParts(indexDir string, ids []string) map[string]bool {
	named := map[string]bool{}
	store.EachNamedPart(indexDir, ids, func(name string, p segment.PartLoc) {
		named[string(partKey(p.Owner, name, p.Part))] = true
	})
	return named
}
