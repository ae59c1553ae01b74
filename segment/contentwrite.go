package segment

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/pierrec/lz4/v4"

	"github.com/bcindex/bcindex/internal/checksum"
)

// Stored is a blob's bytes as the content file stores them (StoreText).
type Stored struct {
	Bytes  []byte
	Pieced bool // a piece table, then one block per piece
}

// StoreText returns a blob's content as the content file stores it: an LZ4
// block, or the content itself when LZ4 saves less than an eighth; with
// ends (ngram.Bounds: where the trigram file's pieces of the blob end),
// one such block per piece, after a table of the pieces' offsets and
// first line numbers. Indexing workers call it, so that compression runs
// on every core.
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
func StoreText(content []byte, ends []int) Stored {
	if len(content) == 0 {
		return Stored{}
	}
	s := storeScratches.Get().(*storeScratch)
	defer storeScratches.Put(s)
	if ends == nil {
		block := s.block(content)
		if len(block) == len(content) {
			return Stored{Bytes: content}
		}
		return Stored{Bytes: append([]byte(nil), block...)}
	}
	table := 4 + pieceEntrySize*len(ends)
	out := make([]byte, table, table+len(content)/2)
	binary.LittleEndian.PutUint32(out, uint32(len(ends)))
	start, line := 0, 1
	for k, end := range ends {
		piece := content[start:end]
		block := s.block(piece)
		p := out[4+pieceEntrySize*k:]
		binary.LittleEndian.PutUint32(p, uint32(start))
		binary.LittleEndian.PutUint32(p[4:], uint32(line))
		binary.LittleEndian.PutUint32(p[8:], uint32(len(block)))
		out = append(out, block...)
		line += bytes.Count(piece, []byte{'\n'})
		start = end
	}
	return Stored{Bytes: out, Pieced: true}
}

// block returns b as one block stores it: LZ4-compressed in the scratch's
// memory, or b itself when LZ4 saves less than an eighth.
func (s *storeScratch) block(b []byte) []byte {
	if bound := lz4.CompressBlockBound(len(b)); cap(s.out) < bound {
		s.out = make([]byte, bound)
	}
	out := s.out[:cap(s.out)]
	n, err := s.c.CompressBlock(b, out)
	if err != nil || n == 0 || n > len(b)-len(b)/8 {
		return b
	}
	return out[:n]
}

// storeScratch is StoreText's reusable state.
type storeScratch struct {
	c   lz4.Compressor
	out []byte
}

var storeScratches = sync.Pool{New: func() any { return new(storeScratch) }}

type contentEntry struct {
	off          int64
	stored, size uint32 // stored with piecedBit
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
func (w *ContentWriter) Add(sha [20]byte, text Stored, size int) error {
	stored := text.Bytes
	if len(stored) == 0 {
		return nil
	}
	if len(stored) >= piecedBit || size >= 1<<32 {
		return fmt.Errorf("content: blob %x of %d bytes stored in %d", sha, size, len(stored))
	}
	e := contentEntry{off: w.n, stored: uint32(len(stored)), size: uint32(size)}
	if text.Pieced {
		e.stored |= piecedBit
	}
	w.shas = append(w.shas, sha)
	w.entries = append(w.entries, e)
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
		if stored.Bytes == nil {
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
