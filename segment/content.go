package segment

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/pierrec/lz4/v4"

	"github.com/bcindex/bcindex/internal/checksum"
	"github.com/bcindex/bcindex/internal/mmap"
)

// ContentFile keeps the bytes of the segment's blobs (binary ones only
// when LZ4 shrinks them: see indexer's grams), so that exact search
// verifies a candidate with a fast decompression instead of inflating it
// out of git's pack (that was most of a search's time).
//
// content.bin layout (little endian):
//
//	header   64 B: magic "BCTEXT01", blobs u32 (the chunk table's), 0 u32,
//	         data bytes u64, at 24 the CRC-32C of everything after the
//	         header, 28..59 zero, at 60 the CRC-32C of bytes 0..59
//	data     the blobs' bytes back to back, each an LZ4 block (package
//	         github.com/pierrec/lz4/v4), or as they are when LZ4 saves
//	         less than an eighth
//	index    blobs × 16 B in blob-table order: offset u64 of the blob's
//	         bytes in data, their stored length u32, the blob's length
//	         u32; a stored length equal to the blob's means stored as is,
//	         both 0 a blob without content here (binary, too large)
//
// The data comes before the index so that a writer streams it.
const ContentFile = "content.bin"

const (
	contentMagic     = "BCTEXT01"
	contentEntrySize = 16
	// spillBytes is how much stored data a writer keeps in memory before
	// it moves it to a temporary file.
	spillBytes = 16 << 20
)

// StoreText returns a blob's content as the content file stores it: an LZ4
// block, or the content itself when LZ4 saves less than an eighth.
// Indexing workers call it, so that compression runs on every core.
//
// LZ4 rather than S2 or zstd: on the Go toolchain's src/ (128 MB), one
// core, best of five, in one run: LZ4 decoded it in 86 ms (53.0 MB
// stored), S2 in 165 ms (51.4 MB), zstd took several times longer (36
// MB); a broad search decodes nearly every file.
//
// The compressor and its output buffer are reused: a new lz4.Compressor is
// a 136 KB hash table to zero, for every blob (on a small repository, more
// than its compression). CompressBlock resets the table's use before each
// block, so a reused compressor writes the same bytes as a new one.
func StoreText(content []byte) []byte {
	if len(content) == 0 {
		return nil
	}
	s := storeScratches.Get().(*storeScratch)
	defer storeScratches.Put(s)
	if bound := lz4.CompressBlockBound(len(content)); cap(s.out) < bound {
		s.out = make([]byte, bound)
	}
	out := s.out[:cap(s.out)]
	n, err := s.c.CompressBlock(content, out)
	if err != nil || n == 0 || n > len(content)-len(content)/8 {
		return content
	}
	return append([]byte(nil), out[:n]...)
}

// storeScratch is StoreText's reusable state.
type storeScratch struct {
	c   lz4.Compressor
	out []byte
}

var storeScratches = sync.Pool{New: func() any { return new(storeScratch) }}

type contentEntry struct {
	off          int64
	stored, size uint32
}

// ContentWriter accumulates the stored texts of one segment's blobs.
type ContentWriter struct {
	// TempDir is where data over spillBytes goes until the file is
	// written ("" for the system's).
	TempDir string
	shas    [][20]byte
	entries []contentEntry
	buf     []byte
	spill   *os.File
	n       int64
}

// Add adds a blob's stored text (StoreText) of size bytes.
func (w *ContentWriter) Add(sha [20]byte, stored []byte, size int) error {
	if len(stored) == 0 {
		return nil
	}
	w.shas = append(w.shas, sha)
	w.entries = append(w.entries, contentEntry{off: w.n, stored: uint32(len(stored)), size: uint32(size)})
	w.n += int64(len(stored))
	w.buf = append(w.buf, stored...)
	if len(w.buf) < spillBytes {
		return nil
	}
	if w.spill == nil {
		f, err := os.CreateTemp(w.TempDir, ".bcindex-content-*")
		if err != nil {
			return fmt.Errorf("content: %w", err)
		}
		os.Remove(f.Name()) // unnamed: gone with the process
		w.spill = f
	}
	if _, err := w.spill.Write(w.buf); err != nil {
		return fmt.Errorf("content: %w", err)
	}
	w.buf = w.buf[:0]
	return nil
}

// Append copies the texts of src's blobs that keep accepts (nil: all).
// shaOf names the blob at an index of src's chunk table.
func (w *ContentWriter) Append(src *Content, shaOf func(blob int) [20]byte, keep func([20]byte) bool) error {
	for b := 0; b < src.blobs; b++ {
		stored, size, err := src.stored(b)
		if err != nil {
			return err
		}
		if stored == nil {
			continue
		}
		if sha := shaOf(b); keep == nil || keep(sha) {
			if err := w.Add(sha, stored, size); err != nil {
				return err
			}
		}
	}
	return nil
}

// Close releases the writer's temporary file.
func (w *ContentWriter) Close() {
	if w.spill != nil {
		w.spill.Close()
		w.spill = nil
	}
}

// WriteFile writes the content file of a segment whose chunk table lists
// nblobs blobs, blobIndex giving a blob's index there, through a
// temporary file synced and renamed into place.
func (w *ContentWriter) WriteFile(path string, nblobs int, blobIndex func(sha [20]byte) (int, bool)) (err error) {
	defer w.Close()
	index := make([]byte, contentEntrySize*nblobs)
	for i, sha := range w.shas {
		b, ok := blobIndex(sha)
		if !ok || b >= nblobs {
			return fmt.Errorf("content: blob %x is not in the segment", sha)
		}
		e := w.entries[i]
		p := index[contentEntrySize*b:]
		binary.LittleEndian.PutUint64(p, uint64(e.off))
		binary.LittleEndian.PutUint32(p[8:], e.stored)
		binary.LittleEndian.PutUint32(p[12:], e.size)
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-"+filepath.Base(path)+"-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	crc := checksum.New()
	bw := bufio.NewWriterSize(io.MultiWriter(f, crc), 1<<20)
	var header [64]byte
	if _, err := f.Write(header[:]); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if w.spill != nil {
		if _, err := w.spill.Seek(0, io.SeekStart); err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
		if _, err := io.Copy(bw, w.spill); err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
	}
	bw.Write(w.buf)
	bw.Write(index)
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	copy(header[:], contentMagic)
	binary.LittleEndian.PutUint32(header[8:], uint32(nblobs))
	binary.LittleEndian.PutUint64(header[16:], uint64(w.n))
	binary.LittleEndian.PutUint32(header[24:], crc.Sum32())
	binary.LittleEndian.PutUint32(header[60:], checksum.Sum(header[:60]))
	if _, err := f.WriteAt(header[:], 0); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// Content is an open content file. It is safe for concurrent use.
type Content struct {
	data     []byte
	unmap    func() error
	blobs    int
	body     []byte // data, then index
	stores   []byte
	index    []byte
	checksum uint32
}

// OpenContent maps a content file and checks its header and sizes.
func OpenContent(path string) (*Content, error) {
	data, unmap, err := mmap.File(path)
	if err != nil {
		return nil, err
	}
	c, err := parseContent(data)
	if err != nil {
		unmap()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	c.unmap = unmap
	return c, nil
}

func parseContent(data []byte) (*Content, error) {
	if len(data) < 64 || string(data[:8]) != contentMagic {
		return nil, errors.New("not a content file")
	}
	h := data[:64]
	if checksum.Sum(h[:60]) != binary.LittleEndian.Uint32(h[60:]) {
		return nil, errors.New("header checksum mismatch")
	}
	c := &Content{data: data, blobs: int(binary.LittleEndian.Uint32(h[8:])), checksum: binary.LittleEndian.Uint32(h[24:])}
	n := binary.LittleEndian.Uint64(h[16:])
	if want := 64 + n + uint64(contentEntrySize)*uint64(c.blobs); want != uint64(len(data)) {
		return nil, fmt.Errorf("sizes add up to %d bytes, file has %d", want, len(data))
	}
	c.body = data[64:]
	c.stores, c.index = c.body[:n], c.body[n:]
	return c, nil
}

// Close unmaps the file.
func (c *Content) Close() error {
	if c == nil || c.unmap == nil {
		return nil
	}
	err := c.unmap()
	c.unmap = nil
	return err
}

// VerifyChecksum checks the CRC-32C of everything after the header.
func (c *Content) VerifyChecksum() error {
	if checksum.Sum(c.body) != c.checksum {
		return errors.New("checksum mismatch")
	}
	return nil
}

// stored returns blob b's stored bytes and length (nil when it has none).
func (c *Content) stored(b int) ([]byte, int, error) {
	if b < 0 || b >= c.blobs {
		return nil, 0, fmt.Errorf("content: blob %d of %d", b, c.blobs)
	}
	p := c.index[contentEntrySize*b:]
	off, n, size := binary.LittleEndian.Uint64(p), uint64(binary.LittleEndian.Uint32(p[8:])), int(binary.LittleEndian.Uint32(p[12:]))
	if n == 0 {
		return nil, 0, nil
	}
	if off > uint64(len(c.stores)) || n > uint64(len(c.stores))-off || n > uint64(size) {
		return nil, 0, fmt.Errorf("content: blob %d at %d+%d of %d bytes", b, off, n, len(c.stores))
	}
	return c.stores[off : off+n], size, nil
}

// Has reports whether blob b's content is here.
func (c *Content) Has(b int) bool {
	s, _, err := c.stored(b)
	return err == nil && s != nil
}

// Text returns a copy of blob b's content, in buf's memory when its
// capacity holds it; ok is false when it has none here. A stored text that
// does not decode is an error.
func (c *Content) Text(b int, buf []byte) ([]byte, bool, error) {
	s, size, err := c.stored(b)
	if err != nil || s == nil {
		return nil, false, err
	}
	out := buf[:0]
	if cap(out) < size {
		out = make([]byte, size)
	}
	out = out[:size]
	if len(s) == size {
		copy(out, s)
		return out, true, nil
	}
	if n, err := lz4.UncompressBlock(s, out); err != nil || n != size {
		return nil, false, fmt.Errorf("content: blob %d does not decode", b)
	}
	return out, true, nil
}

// Verify checks the checksum and every blob's text: within the file, and
// decoding to its length.
func (c *Content) Verify() error {
	if err := c.VerifyChecksum(); err != nil {
		return err
	}
	for b := 0; b < c.blobs; b++ {
		if _, _, err := c.Text(b, nil); err != nil {
			return err
		}
	}
	return nil
}
