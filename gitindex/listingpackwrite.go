package gitindex

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
	"os"
	"path/filepath"
	"sort"

	"github.com/bcindex/bcindex/internal/checksum"
	"github.com/go-git/go-git/v5/plumbing"
)

// maxChain bounds a chain of deltas in packs: a listing whose parent's
// is the maxChain-th of its chain is stored in full. Reading a listing
// decodes its chain back to the full one (listingLoader), so the bound is
// what a read can cost; a full listing of a tree of 4,000 files takes
// about as much as 500 deltas of a few files. A variable for tests.
var maxChain = 256

// packWriter writes the listings of one history run into a pack: records
// are appended to a temporary file as they come, and finish writes the
// index and renames it into place. The records written so far are read
// back through it (a listingLoader given it), so that a tree met twice in
// a run is listed once.
type packWriter struct {
	indexDir string
	f        *os.File // nil until the first record
	sum      hash.Hash
	off      int64
	recs     map[plumbing.Hash][2]int64 // tree → offset, length
	buf      []byte
	written  string // the pack's path, once finished
}

func newPackWriter(indexDir string) *packWriter {
	return &packWriter{indexDir: indexDir, recs: map[plumbing.Hash][2]int64{}}
}

// add writes l: as its changes against parent, the listing of the
// parent commit already stored, when the chain allows it and they are
// few, else in full. It sets l's place in its chain.
func (w *packWriter) add(l, parent *Listing) error {
	if _, ok := w.recs[l.Tree]; ok {
		return nil
	}
	hl := len(plumbing.ZeroHash)
	b := append(w.buf[:0], l.Tree[:]...)
	l.chain = 1
	if parent != nil && parent.chain > 0 && parent.chain < maxChain {
		gone, changed := listingDelta(parent.Entries, l.Entries)
		if (len(gone)+len(changed))*maxDeltaShare <= len(parent.Entries) {
			b = append(b, recordDelta)
			b = append(b, parent.Tree[:]...)
			b = appendPaths(b, gone)
			b = appendEntries(b, changed)
			l.chain = parent.chain + 1
		}
	}
	if l.chain == 1 {
		b = append(b[:hl], recordFull)
		b = appendEntries(b, l.Entries)
	}
	l.setDelta(l, nil, nil)
	l.base = nil
	b = binary.LittleEndian.AppendUint32(b, checksum.Sum(b))
	w.buf = b
	return w.addRecord(l.Tree, b)
}

// addRecord appends tree's record b.
func (w *packWriter) addRecord(tree plumbing.Hash, b []byte) error {
	if w.f == nil {
		if err := w.create(); err != nil {
			return err
		}
	}
	if _, err := w.f.Write(b); err != nil {
		return fmt.Errorf("write listing pack: %w", err)
	}
	w.sum.Write(b)
	w.recs[tree] = [2]int64{w.off, int64(len(b))}
	w.off += int64(len(b))
	return nil
}

func (w *packWriter) create() error {
	dir := packDir(w.indexDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write listing pack: %w", err)
	}
	f, err := os.CreateTemp(dir, ".tmp-pack-*")
	if err != nil {
		return fmt.Errorf("write listing pack: %w", err)
	}
	w.f, w.sum = f, sha256.New()
	if _, err := f.Write([]byte(packMagic)); err != nil {
		w.abort()
		return fmt.Errorf("write listing pack: %w", err)
	}
	w.sum.Write([]byte(packMagic))
	w.off = int64(len(packMagic))
	return nil
}

// record reads back the record of tree written so far.
func (w *packWriter) record(tree plumbing.Hash, buf []byte) ([]byte, bool, error) {
	at, ok := w.recs[tree]
	if !ok {
		return nil, false, nil
	}
	if int64(cap(buf)) < at[1] {
		buf = make([]byte, at[1])
	}
	buf = buf[:at[1]]
	if _, err := w.f.ReadAt(buf, at[0]); err != nil {
		return nil, true, fmt.Errorf("read listing pack being written: %w", err)
	}
	return buf, true, nil
}

// finish writes the index and the trailer and renames the pack into
// place; a writer that wrote nothing writes no pack.
func (w *packWriter) finish() error {
	if w.f == nil {
		return nil
	}
	trees := make([]plumbing.Hash, 0, len(w.recs))
	for t := range w.recs {
		trees = append(trees, t)
	}
	sort.Slice(trees, func(i, j int) bool { return bytes.Compare(trees[i][:], trees[j][:]) < 0 })
	idx := make([]byte, 0, len(trees)*packEntryLen+packTrailerLen)
	for _, t := range trees {
		idx = append(idx, t[:]...)
		idx = binary.LittleEndian.AppendUint64(idx, uint64(w.recs[t][0]))
		idx = binary.LittleEndian.AppendUint32(idx, uint32(w.recs[t][1]))
	}
	idx = binary.LittleEndian.AppendUint64(idx, uint64(w.off))
	idx = binary.LittleEndian.AppendUint32(idx, uint32(len(trees)))
	idx = binary.LittleEndian.AppendUint32(idx, checksum.Sum(idx))
	_, err := w.f.Write(idx)
	w.sum.Write(idx)
	if cerr := w.f.Close(); err == nil {
		err = cerr
	}
	tmp := w.f.Name()
	path := filepath.Join(packDir(w.indexDir), "pack-"+hex.EncodeToString(w.sum.Sum(nil)[:20])+".pack")
	if err == nil {
		err = os.Rename(tmp, path)
	}
	w.f = nil
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write listing pack: %w", err)
	}
	w.written = path
	p := &treePack{path: path, index: idx[:len(trees)*packEntryLen], recEnd: w.off}
	treePacksOf(w.indexDir).add(p)
	return nil
}

// abort removes the pack being written.
func (w *packWriter) abort() {
	if w.f != nil {
		w.f.Close()
		os.Remove(w.f.Name())
		w.f = nil
	}
}
