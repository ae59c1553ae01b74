package pickaxe

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"slices"

	"github.com/klauspost/compress/s2"

	"github.com/bcindex/bcindex/exact"
	"github.com/bcindex/bcindex/internal/cache"
	"github.com/bcindex/bcindex/internal/checksum"
)

// A segment of the change table may have a diffs file beside it (its name
// with ".diffs"), holding a record (record.go) of every change of its
// commits, in the segment's order:
//
//	frames   S2 blocks (github.com/klauspost/compress/s2), each holding
//	         the records of a run of changes back to back, about
//	         frameBytes of them
//	index    uvarints: the diff options the records were made with
//	         (length and bytes, diffOptions.String), the number of
//	         changes, then per change its frame + 1 (0: no record; read
//	         the blobs), its offset in the frame's bytes times two plus
//	         1 for a binary file's record, and its filter (length and
//	         bytes; see filter.go), then the number of frames
//	         and per frame its compressed length and the CRC-32C of its
//	         bytes (u32)
//	trailer  16 bytes: the index's offset (u64), its CRC-32C (u32) and
//	         the magic "bcx3"
//
// Format 2 ("bcx2") differs only in its filters (filterV2), and is still
// read; a history index writes format 3 for the segments it adds or
// records again.
//
// A query reads the trailer and the index, then only the frames holding a
// change whose filter may hold the pattern. S2 rather than zstd: a common
// pattern reads every frame, and S2 decodes about four times as fast for
// frames a third larger (measured on git's last 2,000 first-parent
// commits: 33 MB of patches, 10.6 MB in S2's better mode, 8.2 MB in zstd
// at its default level). Larger frames, or a dictionary, would take fewer
// bytes and cost the queries more (on git's last 1,000 first-parent
// commits: 64 KB frames 12% fewer bytes of patches, and 7-16% more CPU for
// a pattern in a few hundred changes, which decodes a frame for each; a
// 64 KB dictionary sampled from the records as much, decoded at half the
// speed). Everything is derived from git: a file that fails a check is
// deleted and made again by the next history index.
const (
	diffsMagic   = "bcx3"
	diffsMagicV2 = "bcx2"
	frameBytes   = 16 << 10
	trailerSize  = 16
)

func diffsPath(segPath string) string { return segPath + ".diffs" }

var errBadDiffs = errors.New("malformed change table diffs")

// diffsWriter accumulates the records of one segment's changes.
type diffsWriter struct {
	opts   diffOptions
	frames [][]byte // compressed
	cur    []byte   // the records of the frame being filled
	index  []entry
	grams  []uint32
}

// entry is where a change's record is, and its filter.
type entry struct {
	frame, off int // frame + 1 (0: no record), offset in its bytes
	binary     bool
	filter     filter
}

// add appends the next change's record (nil: none). A binary file's
// record has no lines, and -S counts in its blobs: its filter is made of
// the blobs' trigrams, which content gives (nil: a filter that passes
// every pattern).
func (w *diffsWriter) add(rec []byte, content func(func([]byte)) error) {
	if rec == nil {
		w.index = append(w.index, entry{})
		return
	}
	e := entry{frame: len(w.frames) + 1, off: len(w.cur)}
	r, err := decodeRecord(rec)
	e.binary = err == nil && r.binary
	if err == nil && !r.binary {
		w.grams = r.trigrams(w.grams[:0])
		e.filter = newFilter(w.grams)
	} else if err == nil && content != nil {
		w.grams = w.grams[:0]
		if content(func(b []byte) { w.grams = exact.Trigrams(b, w.grams) }) == nil {
			slices.Sort(w.grams)
			e.filter = newFilter(slices.Compact(w.grams))
		}
	}
	w.index = append(w.index, e)
	w.cur = append(w.cur, rec...)
	if len(w.cur) >= frameBytes {
		w.flush()
	}
}

func (w *diffsWriter) flush() {
	if len(w.cur) > 0 {
		w.frames = append(w.frames, s2.EncodeBetter(nil, w.cur))
		w.cur = w.cur[:0]
	}
}

// write writes the diffs file of the segment stored as the cache entry
// segName: false when another writer holds its lock.
func (w *diffsWriter) write(d cache.Dir, segName string) (bool, error) {
	w.flush()
	var buf []byte
	for _, f := range w.frames {
		buf = append(buf, f...)
	}
	at := len(buf)
	opts := w.opts.String()
	buf = binary.AppendUvarint(buf, uint64(len(opts)))
	buf = append(buf, opts...)
	buf = binary.AppendUvarint(buf, uint64(len(w.index)))
	for _, e := range w.index {
		buf = binary.AppendUvarint(buf, uint64(e.frame))
		off := uint64(e.off) << 1
		if e.binary {
			off |= 1
		}
		buf = binary.AppendUvarint(buf, off)
		buf = binary.AppendUvarint(buf, uint64(len(e.filter)))
		buf = append(buf, e.filter...)
	}
	buf = binary.AppendUvarint(buf, uint64(len(w.frames)))
	for _, f := range w.frames {
		buf = binary.AppendUvarint(buf, uint64(len(f)))
		buf = binary.LittleEndian.AppendUint32(buf, checksum.Sum(f))
	}
	crc := checksum.Sum(buf[at:])
	buf = binary.LittleEndian.AppendUint64(buf, uint64(at))
	buf = binary.LittleEndian.AppendUint32(buf, crc)
	buf = append(buf, diffsMagic...)
	return d.Put(diffsPath(segName), buf)
}

// diffsFile is a segment's diffs file, its index read; frames are read
// and decoded when asked for, into the reader's buffers, so that a search
// holds the frames it reads one at a time per core, whatever the size of
// the history (a mapping would count every page read in the process's
// memory). Only the readers hold the file open, one at a time.
type diffsFile struct {
	path   string
	v2     bool // format 2: filterV2's filters
	opts   string
	index  []entry
	frames []frameLoc
}

// openDiffs reads the index of the diffs file beside the segment at
// segPath (changes entries, or any number when negative): nil and
// os.ErrNotExist when there is none, errBadDiffs when it fails a check.
func openDiffs(segPath string, changes int) (*diffsFile, error) {
	path := diffsPath(segPath)
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readDiffsIndex(f, path, changes)
}

// readDiffsIndex reads the trailer and the index of the diffs file f.
func readDiffsIndex(f *os.File, path string, changes int) (*diffsFile, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := st.Size()
	if size < trailerSize {
		return nil, errBadDiffs
	}
	tr := make([]byte, trailerSize)
	if _, err := f.ReadAt(tr, size-trailerSize); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	at := int64(binary.LittleEndian.Uint64(tr))
	v2 := string(tr[12:]) == diffsMagicV2
	if string(tr[12:]) != diffsMagic && !v2 || at < 0 || at > size-trailerSize {
		return nil, errBadDiffs
	}
	idx := make([]byte, size-trailerSize-at)
	if _, err := f.ReadAt(idx, at); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if checksum.Sum(idx) != binary.LittleEndian.Uint32(tr[8:]) {
		return nil, fmt.Errorf("%s: checksum mismatch: %w", path, errBadDiffs)
	}
	d := &diffsFile{path: path, v2: v2}
	next := func() int {
		v, n := binary.Uvarint(idx)
		if n <= 0 || v > 1<<40 {
			idx = nil
			return -1
		}
		idx = idx[n:]
		return int(v)
	}
	n := next()
	if n < 0 || n > len(idx) {
		return nil, errBadDiffs
	}
	d.opts, idx = string(idx[:n]), idx[n:]
	if n = next(); n < 0 || n != changes && changes >= 0 {
		return nil, errBadDiffs
	}
	d.index = make([]entry, n)
	for i := range d.index {
		e := &d.index[i]
		e.frame, e.off = next(), next()
		e.binary, e.off = e.off&1 != 0, e.off>>1
		l := next()
		if l < 0 || l > len(idx) {
			return nil, errBadDiffs
		}
		e.filter, idx = filter(idx[:l:l]), idx[l:]
	}
	nf := next()
	if nf < 0 {
		return nil, errBadDiffs
	}
	off := int64(0)
	for i := 0; i < nf; i++ {
		l := next()
		if l < 0 || len(idx) < 4 {
			return nil, errBadDiffs
		}
		d.frames = append(d.frames, frameLoc{off: off, n: int64(l), crc: binary.LittleEndian.Uint32(idx)})
		idx = idx[4:]
		off += int64(l)
	}
	if off != at || len(idx) != 0 {
		return nil, errBadDiffs
	}
	for _, e := range d.index {
		if e.frame < 0 || e.frame > nf || e.off < 0 {
			return nil, errBadDiffs
		}
	}
	return d, nil
}

// frameLoc is where a frame is in the file, and its checksum.
type frameLoc struct {
	off, n int64
	crc    uint32
}

// has reports whether change i has a record.
func (d *diffsFile) has(i int) bool { return d.index[i].frame > 0 }

// binary reports whether change i's record is a binary file's, which
// holds no lines.
func (d *diffsFile) binary(i int) bool { return d.index[i].binary }

// mayHold reports whether change i's record may hold a match of q's
// trigram plan (false only when its filter proves it holds none).
func (d *diffsFile) mayHold(i int, q *exact.Query) bool {
	if d.v2 {
		return filterV2(d.index[i].filter).mayHold(q)
	}
	return d.index[i].filter.mayHold(q)
}

// frameReader decodes the frames records are read from, keeping the
// last one: records are read in order, so each frame is decoded once. One
// goroutine uses a frameReader at a time, and closes it when done.
type frameReader struct {
	d     *diffsFile
	frame int      // of d, in buf
	f     *os.File // d's file, or another's when d is nil
	fpath string
	comp  []byte
	buf   []byte
}

// close closes the file the reader has open.
func (fr *frameReader) close() {
	if fr.f != nil {
		fr.f.Close()
	}
	fr.f, fr.fpath, fr.d = nil, "", nil
}

// record returns change i's record in d; ok is false when the change has
// none. The record's bytes are valid until the next call.
func (fr *frameReader) record(d *diffsFile, i int) (rec record, ok bool, err error) {
	e := d.index[i]
	if e.frame == 0 {
		return rec, false, nil
	}
	if fr.d != d || fr.frame != e.frame-1 {
		fr.d = nil
		loc := d.frames[e.frame-1]
		if int64(cap(fr.comp)) < loc.n {
			fr.comp = make([]byte, max(loc.n, 2*int64(cap(fr.comp))))
		}
		comp := fr.comp[:loc.n]
		if fr.fpath != d.path {
			fr.close()
			f, err := os.Open(d.path)
			if err != nil {
				return rec, false, err
			}
			fr.f, fr.fpath = f, d.path
		}
		if _, err := fr.f.ReadAt(comp, loc.off); err != nil {
			return rec, false, fmt.Errorf("read %s: %w", d.path, err)
		}
		if checksum.Sum(comp) != loc.crc {
			return rec, false, fmt.Errorf("read %s: frame %d: checksum mismatch: %w", d.path, e.frame-1, errBadDiffs)
		}
		n, err := s2.DecodedLen(comp)
		if err != nil {
			return rec, false, fmt.Errorf("read %s: %w: %v", d.path, errBadDiffs, err)
		}
		if cap(fr.buf) < n {
			fr.buf = make([]byte, max(n, 2*cap(fr.buf)))
		}
		if fr.buf, err = s2.Decode(fr.buf[:n], comp); err != nil {
			return rec, false, fmt.Errorf("read %s: %w: %v", d.path, errBadDiffs, err)
		}
		fr.d, fr.frame = d, e.frame-1
	}
	if e.off > len(fr.buf) {
		return rec, false, errBadDiffs
	}
	rec, err = decodeRecord(fr.buf[e.off:])
	return rec, err == nil, err
}
