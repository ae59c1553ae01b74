package vector

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/bcindex/bcindex/internal/checksum"
)

const (
	segMagic   = "BCVEC"
	segVersion = 1
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
	}
	vecOff, scaleOff, size := layout(h.dim, h.rows)
	if h.vecOff != vecOff || h.scaleOff != scaleOff || h.size != size {
		return h, fmt.Errorf("inconsistent layout for %d rows of dim %d: offsets %d/%d size %d, want %d/%d size %d",
			h.rows, h.dim, h.vecOff, h.scaleOff, h.size, vecOff, scaleOff, size)
	}
	return h, nil
}
