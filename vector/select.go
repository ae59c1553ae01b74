package vector

import (
	"fmt"

	"github.com/bcindex/bcindex/internal/checksum"
)

// SelectRows encodes as a new part the rows keep (ascending, each below
// the part's rows) of the encoded part b (EncodeParts' format, padding
// after it allowed), followed by zero bytes up to minSize when shorter.
// Each kept row's vector, scale and sign bytes are copied as they are, so
// a row scores, and is pre-filtered, the same in the new part. b's header and body checksums are
// checked first: a damaged part is an error, never copied into a part
// with a fresh checksum.
func SelectRows(b []byte, keep []int, minSize int) ([]byte, error) {
	if len(b) < headerSize {
		return nil, fmt.Errorf("vector: select rows: part of %d bytes", len(b))
	}
	h, err := parseHeader(b[:headerSize])
	if err != nil {
		return nil, fmt.Errorf("vector: select rows: %w", err)
	}
	l := layout(h.dim, h.rows)
	vecOff, scaleOff, size := l.vecOff, l.scaleOff, l.size
	if h.shape() != l || int64(len(b)) < size {
		return nil, fmt.Errorf("vector: select rows: part of %d bytes, header says %d", len(b), h.size)
	}
	if got := checksum.Sum(b[headerSize:size]); got != h.bodyCRC {
		return nil, fmt.Errorf("vector: select rows: body checksum mismatch (stored %08x, computed %08x)", h.bodyCRC, got)
	}
	nl := layout(h.dim, len(keep))
	nVecOff, nScaleOff, nSize := nl.vecOff, nl.scaleOff, nl.size
	sw := 8 * int64(sketchWords(h.dim)) // a row's sign bytes
	out := make([]byte, max(nSize, int64(minSize)))
	prev := -1
	for i, r := range keep {
		if r <= prev || r >= h.rows {
			return nil, fmt.Errorf("vector: select rows: row %d after %d of %d", r, prev, h.rows)
		}
		prev = r
		d := int64(h.dim)
		copy(out[nVecOff+int64(i)*d:nVecOff+int64(i+1)*d], b[vecOff+int64(r)*d:vecOff+int64(r+1)*d])
		copy(out[nScaleOff+4*int64(i):nScaleOff+4*int64(i+1)], b[scaleOff+4*int64(r):scaleOff+4*int64(r+1)])
		copy(out[nl.signOff+sw*int64(i):nl.signOff+sw*int64(i+1)], b[l.signOff+sw*int64(r):l.signOff+sw*int64(r+1)])
	}
	nh := header{dim: h.dim, rows: len(keep), vecOff: nVecOff, scaleOff: nScaleOff, signOff: nl.signOff, size: nSize,
		bodyCRC: checksum.Sum(out[headerSize:nSize])}
	copy(out, nh.marshal())
	return out, nil
}
