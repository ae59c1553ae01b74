package vector

import (
	"encoding/binary"
	"fmt"
	"math"
	"unsafe"

	"github.com/bcindex/bcindex/internal/checksum"
)

// maxPartBytes bounds the vectors of one part: a store keeps each part as
// one value, and values are bounded by the size of its log files.
const maxPartBytes = 16 << 20

// PartRows is how many rows a part of dim-dimensional vectors holds (the
// last part of a segment holds the rest): a multiple of 64 whose vectors
// fill at most maxPartBytes.
func PartRows(dim int) int {
	return max(64, maxPartBytes/max(1, dim)&^63)
}

// EncodeParts encodes rows as parts of PartRows(dim) rows in the segment
// file format, each followed by zero bytes up to minSize when shorter
// (OpenRegions takes a part's own size from its header, so the padding is
// never read). A nil q[i] is a row without vector, as in Writer.Add. No
// rows make one empty part.
func EncodeParts(dim int, q [][]int8, scales []float32, minSize int) ([][]byte, error) {
	return encodeParts(dim, PartRows(dim), q, scales, minSize)
}

// encodeParts is EncodeParts with parts of per rows; the tests cut small
// parts so that a few hundred rows span several.
func encodeParts(dim, per int, q [][]int8, scales []float32, minSize int) ([][]byte, error) {
	if dim <= 0 || dim > maxDim {
		return nil, fmt.Errorf("vector: encode: dimension %d out of range 1..%d", dim, maxDim)
	}
	if len(q) != len(scales) {
		return nil, fmt.Errorf("vector: encode: %d rows and %d scales", len(q), len(scales))
	}
	var parts [][]byte
	for lo := 0; lo == 0 || lo < len(q); lo += per {
		hi := min(len(q), lo+per)
		p, err := encodePart(dim, q[lo:hi], scales[lo:hi], minSize)
		if err != nil {
			return nil, fmt.Errorf("vector: encode rows %d..%d: %w", lo, hi, err)
		}
		parts = append(parts, p)
	}
	return parts, nil
}

// encodePart lays rows out as one segment file in memory.
func encodePart(dim int, q [][]int8, scales []float32, minSize int) ([]byte, error) {
	rows := len(q)
	l := layout(dim, rows)
	vecOff, scaleOff, size := l.vecOff, l.scaleOff, l.size
	b := make([]byte, max(size, int64(minSize)))
	for i, r := range q {
		s := scales[i]
		if r == nil {
			continue // zero bytes and scale 0
		}
		if len(r) != dim {
			return nil, fmt.Errorf("row %d has dimension %d, segment has %d", i, len(r), dim)
		}
		if !(s >= 0 && s <= math.MaxFloat32) {
			return nil, fmt.Errorf("row %d has invalid scale %v", i, s)
		}
		copy(b[vecOff+int64(i*dim):], int8Bytes(r))
		binary.LittleEndian.PutUint32(b[scaleOff+4*int64(i):], math.Float32bits(s))
	}
	putSigns(b, dim, rows, l)
	h := header{dim: dim, rows: rows, vecOff: vecOff, scaleOff: scaleOff, signOff: l.signOff, size: size,
		bodyCRC: checksum.Sum(b[headerSize:size])}
	copy(b, h.marshal())
	return b, nil
}

// EncodedSize is the length of a part of rows rows of dimension dim,
// without padding.
func EncodedSize(dim, rows int) int64 {
	return layout(dim, rows).size
}

// putSigns writes the sign bits of the part b's rows (its vector block
// written) to its sign block: each row's sketch (sketch.go), its words
// little-endian, so that a query maps the pre-filter's data instead of
// computing it from every vector.
func putSigns(b []byte, dim, rows int, l shape) {
	if rows == 0 {
		return
	}
	words := sketchWords(dim)
	vecs := unsafe.Slice((*int8)(unsafe.Pointer(&b[l.vecOff])), rows*dim)
	const run = 512
	out := make([]uint64, run*words)
	for lo := 0; lo < rows; lo += run {
		hi := min(rows, lo+run)
		o := out[:(hi-lo)*words]
		clear(o)
		signRows(vecs, dim, lo, hi, o)
		at := l.signOff + 8*int64(lo*words)
		for i, w := range o {
			binary.LittleEndian.PutUint64(b[at+8*int64(i):], w)
		}
	}
}
