package gitindex

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bcindex/bcindex/internal/checksum"
	"github.com/go-git/go-git/v5/plumbing"
)

// A history indexing run writes the listings it derives into one pack,
// trees/pack/pack-<sha>.pack, rather than a file per tree: a file per
// listing costs a file system block at least, and most of a history's
// listings are a few changes to the previous commit's. The pack holds
//
//	"BCTPACK1"                the magic
//	records                   one per tree, back to back
//	index                     per record, sorted by tree: the tree (20
//	                          bytes), its offset (8) and length (4)
//	trailer                   the index's offset (8), its count (4), and
//	                          the CRC-32C of the index and those 12 bytes
//
// A record is the tree (20 bytes), its kind, for a delta the tree it is
// a delta against (20), the body of a listing file of the kind (entries;
// or the paths the listing lacks and the entries it holds otherwise),
// and the CRC-32C of all of it. A delta's base may be stored anywhere:
// in the pack, in another, or as a listing file; a chain of deltas is
// read from its first full listing on (listingLoader). The name is the
// SHA-256 of the pack's bytes, so that one history packs the same way.
const (
	packMagic      = "BCTPACK1"
	packTrailerLen = 16
	packEntryLen   = 32
	recordFull     = 'F'
	recordDelta    = 'D'
)

// packDir is where the packs of listings are.
func packDir(indexDir string) string { return filepath.Join(indexDir, "trees", "pack") }

// isPackName reports whether a file of packDir is a pack (not a pack
// being written).
func isPackName(name string) bool {
	return strings.HasPrefix(name, "pack-") && strings.HasSuffix(name, ".pack")
}

// treePack is the index of one pack, read once and kept.
type treePack struct {
	path   string
	index  []byte // packEntryLen bytes per record, sorted by tree
	recEnd int64  // where the records end and the index starts
}

func (p *treePack) count() int { return len(p.index) / packEntryLen }

func (p *treePack) tree(i int) plumbing.Hash {
	var h plumbing.Hash
	copy(h[:], p.index[i*packEntryLen:])
	return h
}

// find returns where tree's record is in the pack.
func (p *treePack) find(tree plumbing.Hash) (off int64, n int, ok bool) {
	i := sort.Search(p.count(), func(i int) bool {
		return bytes.Compare(p.index[i*packEntryLen:i*packEntryLen+len(tree)], tree[:]) >= 0
	})
	if i == p.count() || p.tree(i) != tree {
		return 0, 0, false
	}
	off, n = p.entry(i)
	return off, n, true
}

// entry returns where record i is.
func (p *treePack) entry(i int) (off int64, n int) {
	e := p.index[i*packEntryLen+len(plumbing.ZeroHash):]
	return int64(binary.LittleEndian.Uint64(e)), int(binary.LittleEndian.Uint32(e[8:]))
}

// openTreePack reads the index of the pack at path and checks it: its
// checksum, its order, and that every record lies between the magic and
// the index.
func openTreePack(path string) (*treePack, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open listing pack: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("open listing pack: %w", err)
	}
	size := st.Size()
	head := make([]byte, len(packMagic))
	if size < int64(len(packMagic)+packTrailerLen) {
		return nil, packDamaged(path, "too short")
	}
	if _, err := f.ReadAt(head, 0); err != nil || string(head) != packMagic {
		return nil, packDamaged(path, "bad header")
	}
	tail := make([]byte, packTrailerLen)
	if _, err := f.ReadAt(tail, size-packTrailerLen); err != nil {
		return nil, fmt.Errorf("read listing pack %s: %w", path, err)
	}
	at, n := int64(binary.LittleEndian.Uint64(tail)), int64(binary.LittleEndian.Uint32(tail[8:]))
	if at < int64(len(packMagic)) || at+n*packEntryLen+packTrailerLen != size {
		return nil, packDamaged(path, "bad trailer")
	}
	index := make([]byte, n*packEntryLen+packTrailerLen-4)
	if _, err := f.ReadAt(index, at); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("read listing pack %s: %w", path, err)
	}
	if checksum.Sum(index) != binary.LittleEndian.Uint32(tail[12:]) {
		return nil, packDamaged(path, "index checksum mismatch")
	}
	p := &treePack{path: path, index: index[:n*packEntryLen], recEnd: at}
	for i := range p.count() {
		off, m := p.entry(i)
		if off < int64(len(packMagic)) || off+int64(m) > at || i > 0 && bytes.Compare(p.index[(i-1)*packEntryLen:i*packEntryLen-12], p.index[i*packEntryLen:(i+1)*packEntryLen-12]) >= 0 {
			return nil, packDamaged(path, "bad index")
		}
	}
	return p, nil
}

func packDamaged(path, what string) error {
	return fmt.Errorf("listing pack %s: %s", filepath.Base(path), what)
}

// packRecord is one record of a pack, decoded: a full listing (base zero)
// or a delta against base.
type packRecord struct {
	tree    plumbing.Hash
	base    plumbing.Hash
	full    bool
	entries []Entry  // full: the listing; delta: the entries that differ
	gone    []string // delta: the paths the listing lacks
}

// decodeRecord checks and decodes the record b, which the index gives as
// tree's.
func decodeRecord(tree plumbing.Hash, b []byte) (*packRecord, error) {
	hl := len(plumbing.ZeroHash)
	if len(b) < hl+1+4 {
		return nil, fmt.Errorf("tree listing %s: packed record too short", tree)
	}
	body, sum := b[:len(b)-4], binary.LittleEndian.Uint32(b[len(b)-4:])
	if checksum.Sum(body) != sum {
		return nil, fmt.Errorf("tree listing %s: packed record checksum mismatch", tree)
	}
	rec := &packRecord{}
	copy(rec.tree[:], body)
	if rec.tree != tree {
		return nil, fmt.Errorf("tree listing %s: packed record holds tree %s", tree, rec.tree)
	}
	r := &listingReader{tree: tree, d: body[hl+1:]}
	switch body[hl] {
	case recordFull:
		rec.full = true
		rec.entries = r.entries()
	case recordDelta:
		if len(r.d) < hl {
			return nil, fmt.Errorf("tree listing %s: packed record too short", tree)
		}
		copy(rec.base[:], r.d)
		r.d = r.d[hl:]
		rec.gone = r.paths()
		rec.entries = r.entries()
	default:
		return nil, fmt.Errorf("tree listing %s: packed record of unknown kind", tree)
	}
	if r.err != nil {
		return nil, r.err
	}
	if len(r.d) != 0 {
		return nil, fmt.Errorf("tree listing %s: trailing bytes", tree)
	}
	return rec, nil
}

// recordBase returns the base of the record at off of the pack at path,
// without checking the record: gc keeps it beside a delta it keeps.
func recordBase(f *os.File, off int64) (plumbing.Hash, bool) {
	var head [41]byte
	if _, err := f.ReadAt(head[:], off); err != nil || head[20] != recordDelta {
		return plumbing.ZeroHash, false
	}
	var h plumbing.Hash
	copy(h[:], head[21:])
	return h, true
}

// notPacked is the error of a tree that no listing file or pack holds.
func notPacked(tree plumbing.Hash) error {
	return fmt.Errorf("tree listing %s: %w", tree, fs.ErrNotExist)
}

// CheckListingPack verifies the pack of listings at path: its index, and
// every record's checksum and encoding (an error names the tree, the
// caller the pack). It returns how many records the pack holds.
func CheckListingPack(path string) (int, error) {
	p, err := openTreePack(path)
	if err != nil {
		return 0, err
	}
	f, err := os.Open(path)
	if err != nil {
		return 0, fmt.Errorf("check listing pack: %w", err)
	}
	defer f.Close()
	var buf []byte
	for i := range p.count() {
		off, n := p.entry(i)
		if cap(buf) < n {
			buf = make([]byte, n)
		}
		if _, err := f.ReadAt(buf[:n], off); err != nil {
			return i, fmt.Errorf("check tree listing %s: %w", p.tree(i), err)
		}
		if _, err := decodeRecord(p.tree(i), buf[:n]); err != nil {
			return i, err
		}
	}
	return p.count(), nil
}
