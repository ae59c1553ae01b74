package vector

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"os"
	"path/filepath"
)

const (
	segMagic     = "BCVEC"
	segVersion   = 1
	headerSize   = 64
	blockAlign   = 64
	maxSegRows   = int64(1) << 40 // keeps every offset computation far from overflow
	writeBufSize = 1 << 20
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// header is the decoded segment header; see the package comment for layout.
type header struct {
	dim      int
	rows     int
	vecOff   int64
	scaleOff int64
	size     int64
	bodyCRC  uint32
}

// layout computes the offsets of a version-1 segment with the given shape.
func layout(dim, rows int) (vecOff, scaleOff, size int64) {
	vecOff = headerSize
	scaleOff = alignUp(vecOff+int64(rows)*int64(dim), blockAlign)
	size = scaleOff + 4*int64(rows)
	return
}

func alignUp(n, a int64) int64 { return (n + a - 1) &^ (a - 1) }

func (h *header) marshal() []byte {
	b := make([]byte, headerSize)
	copy(b, segMagic)
	binary.LittleEndian.PutUint16(b[6:], segVersion)
	binary.LittleEndian.PutUint32(b[8:], uint32(h.dim))
	binary.LittleEndian.PutUint64(b[16:], uint64(h.rows))
	binary.LittleEndian.PutUint64(b[24:], uint64(h.vecOff))
	binary.LittleEndian.PutUint64(b[32:], uint64(h.scaleOff))
	binary.LittleEndian.PutUint64(b[40:], uint64(h.size))
	binary.LittleEndian.PutUint32(b[48:], h.bodyCRC)
	binary.LittleEndian.PutUint32(b[60:], crc32.Checksum(b[:60], castagnoli))
	return b
}

// parseHeader validates b (at least headerSize bytes) and returns the header.
func parseHeader(b []byte) (header, error) {
	var h header
	if string(b[:len(segMagic)]) != segMagic {
		return h, errors.New("not a vector segment (bad magic)")
	}
	if v := binary.LittleEndian.Uint16(b[6:]); v != segVersion {
		return h, fmt.Errorf("unsupported segment format version %d (this build reads %d)", v, segVersion)
	}
	if got, want := crc32.Checksum(b[:60], castagnoli), binary.LittleEndian.Uint32(b[60:]); got != want {
		return h, fmt.Errorf("header checksum mismatch (stored %08x, computed %08x)", want, got)
	}
	dim := binary.LittleEndian.Uint32(b[8:])
	rows := binary.LittleEndian.Uint64(b[16:])
	if dim == 0 || dim > maxDim {
		return h, fmt.Errorf("invalid dimension %d", dim)
	}
	if rows > uint64(maxSegRows) {
		return h, fmt.Errorf("invalid row count %d", rows)
	}
	h = header{
		dim:      int(dim),
		rows:     int(rows),
		vecOff:   int64(binary.LittleEndian.Uint64(b[24:])),
		scaleOff: int64(binary.LittleEndian.Uint64(b[32:])),
		size:     int64(binary.LittleEndian.Uint64(b[40:])),
		bodyCRC:  binary.LittleEndian.Uint32(b[48:]),
	}
	vecOff, scaleOff, size := layout(h.dim, h.rows)
	if h.vecOff != vecOff || h.scaleOff != scaleOff || h.size != size {
		return h, fmt.Errorf("inconsistent layout for %d rows of dim %d: offsets %d/%d size %d, want %d/%d size %d",
			h.rows, h.dim, h.vecOff, h.scaleOff, h.size, vecOff, scaleOff, size)
	}
	return h, nil
}

// Writer writes a segment file. Rows are numbered from 0 in the order they
// are added. It is not safe for concurrent use.
type Writer struct {
	path   string
	tmp    string
	dim    int
	f      *os.File
	bw     *bufio.Writer
	crc    uint32
	scales []float32
	done   bool
	err    error // sticky: first failure
}

// Create starts a segment of dim-dimensional rows. It writes path+".tmp"
// (replacing a stale one); Finish renames it to path.
func Create(path string, dim int) (*Writer, error) {
	if dim <= 0 || dim > maxDim {
		return nil, fmt.Errorf("vector: create %s: dimension %d out of range 1..%d", path, dim, maxDim)
	}
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, fmt.Errorf("vector: create: %w", err)
	}
	w := &Writer{path: path, tmp: tmp, dim: dim, f: f, bw: bufio.NewWriterSize(f, writeBufSize)}
	// Placeholder header; the real one is written by Finish.
	if _, err := w.bw.Write(make([]byte, headerSize)); err != nil {
		w.fail(err)
		return nil, w.err
	}
	return w, nil
}

// fail records the first error, closes and removes the temporary file.
func (w *Writer) fail(err error) error {
	if w.err == nil {
		w.err = fmt.Errorf("vector: write %s: %w", w.tmp, err)
	}
	if w.f != nil {
		w.f.Close()
		os.Remove(w.tmp)
		w.f = nil
	}
	return w.err
}

var zeroRow [4096]byte

// Add appends a row. q == nil: row has no vector (never matches). Otherwise
// len(q) must equal the segment's dimension and scale must be finite and
// non-negative (scale 0 also means "no vector"). After Add fails the Writer
// is unusable: later calls, including Finish, return the same error, and the
// temporary file is removed.
func (w *Writer) Add(q []int8, scale float32) error {
	if w.err != nil {
		return w.err
	}
	if w.done {
		return fmt.Errorf("vector: add to %s after Finish", w.path)
	}
	if int64(len(w.scales)) >= maxSegRows {
		return w.fail(fmt.Errorf("more than %d rows", maxSegRows))
	}
	if q == nil {
		scale = 0
		for n := w.dim; n > 0; {
			c := min(n, len(zeroRow))
			if _, err := w.bw.Write(zeroRow[:c]); err != nil {
				return w.fail(err)
			}
			w.crc = crc32.Update(w.crc, castagnoli, zeroRow[:c])
			n -= c
		}
	} else {
		if len(q) != w.dim {
			return w.fail(fmt.Errorf("row %d has dimension %d, segment has %d", len(w.scales), len(q), w.dim))
		}
		if !(scale >= 0 && scale <= math.MaxFloat32) {
			return w.fail(fmt.Errorf("row %d has invalid scale %v", len(w.scales), scale))
		}
		b := int8Bytes(q)
		if _, err := w.bw.Write(b); err != nil {
			return w.fail(err)
		}
		w.crc = crc32.Update(w.crc, castagnoli, b)
	}
	w.scales = append(w.scales, scale)
	return nil
}

// Finish writes the scales and header, fsyncs the file, renames it to the
// final path and syncs the directory (best effort). Calling it again returns
// the first call's result.
func (w *Writer) Finish() error {
	if w.done || w.err != nil {
		return w.err
	}
	w.done = true
	rows := len(w.scales)
	vecOff, scaleOff, size := layout(w.dim, rows)
	if pad := scaleOff - (vecOff + int64(rows)*int64(w.dim)); pad > 0 {
		if _, err := w.bw.Write(zeroRow[:pad]); err != nil {
			return w.fail(err)
		}
		w.crc = crc32.Update(w.crc, castagnoli, zeroRow[:pad])
	}
	sb := make([]byte, 4*rows)
	for i, s := range w.scales {
		binary.LittleEndian.PutUint32(sb[4*i:], math.Float32bits(s))
	}
	w.scales = nil
	if _, err := w.bw.Write(sb); err != nil {
		return w.fail(err)
	}
	w.crc = crc32.Update(w.crc, castagnoli, sb)
	if err := w.bw.Flush(); err != nil {
		return w.fail(err)
	}
	h := header{dim: w.dim, rows: rows, vecOff: vecOff, scaleOff: scaleOff, size: size, bodyCRC: w.crc}
	if _, err := w.f.WriteAt(h.marshal(), 0); err != nil {
		return w.fail(err)
	}
	if err := w.f.Sync(); err != nil {
		return w.fail(err)
	}
	f := w.f
	w.f = nil
	if err := f.Close(); err != nil {
		os.Remove(w.tmp)
		return w.fail(err)
	}
	if err := os.Rename(w.tmp, w.path); err != nil {
		os.Remove(w.tmp)
		return w.fail(err)
	}
	if d, err := os.Open(filepath.Dir(w.path)); err == nil {
		d.Sync() // best effort: not every platform can sync a directory
		d.Close()
	}
	return nil
}
