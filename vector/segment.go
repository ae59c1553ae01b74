package vector

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/bcindex/bcindex/internal/checksum"
)

const (
	segMagic   = "BCVEC"
	segVersion = 2
	headerSize = 64
	blockAlign = 64
	maxSegRows = int64(1) << 40 // keeps every offset computation far from overflow
)

// header is the decoded segment header; see the package comment for layout.
type header struct {
	dim      int
	rows     int
	vecOff   int64
	scaleOff int64
	signOff  int64
	size     int64
	bodyCRC  uint32
}

// shape is where a part's blocks lie: the vectors, the scales and the
// sign bits (sketch.go), and the part's size.
type shape struct {
	vecOff, scaleOff, signOff, size int64
}

// layout computes the offsets of a version-2 segment with the given shape.
func layout(dim, rows int) shape {
	var l shape
	l.vecOff = headerSize
	l.scaleOff = alignUp(l.vecOff+int64(rows)*int64(dim), blockAlign)
	l.signOff = alignUp(l.scaleOff+4*int64(rows), blockAlign)
	l.size = l.signOff + 8*int64(sketchWords(dim))*int64(rows)
	return l
}

func alignUp(n, a int64) int64 { return (n + a - 1) &^ (a - 1) }

// shape returns the offsets the header names.
func (h *header) shape() shape {
	return shape{vecOff: h.vecOff, scaleOff: h.scaleOff, signOff: h.signOff, size: h.size}
}

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
	binary.LittleEndian.PutUint64(b[52:], uint64(h.signOff))
	binary.LittleEndian.PutUint32(b[60:], checksum.Sum(b[:60]))
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
	if got, want := checksum.Sum(b[:60]), binary.LittleEndian.Uint32(b[60:]); got != want {
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
		signOff:  int64(binary.LittleEndian.Uint64(b[52:])),
	}
	if l := layout(h.dim, h.rows); h.shape() != l {
		return h, fmt.Errorf("inconsistent layout for %d rows of dim %d: offsets %d/%d/%d size %d, want %d/%d/%d size %d",
			h.rows, h.dim, h.vecOff, h.scaleOff, h.signOff, h.size, l.vecOff, l.scaleOff, l.signOff, l.size)
	}
	return h, nil
}
