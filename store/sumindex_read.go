package store

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"hash/crc32"
)

// sumReader reads the summary index's fields, remembering the first error.
type sumReader struct {
	b   []byte
	err error
}

var errSumShort = errors.New("cut short")

func (r *sumReader) uvarint() int {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 || v > uint64(len(r.b))*8+1<<20 {
		r.err = errSumShort
		return 0
	}
	r.b = r.b[n:]
	return int(v)
}

func (r *sumReader) bytes(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || n > len(r.b) {
		r.err = errSumShort
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func decodeSummaryIndex(b []byte) (*SummaryIndex, error) {
	if len(b) < len(sumMagic)+4 || string(b[:len(sumMagic)]) != sumMagic {
		return nil, errors.New("not a summary index")
	}
	body := b[:len(b)-4]
	if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(b[len(b)-4:]) {
		return nil, errors.New("checksum mismatch")
	}
	r := &sumReader{b: body[len(sumMagic):]}
	x := &SummaryIndex{ByHash: map[[16]byte]int{}}
	if err := json.Unmarshal(r.bytes(r.uvarint()), &x.Header); err != nil && r.err == nil {
		return nil, err
	}
	if x.Header.Dim < 0 || x.Header.Dim > 1<<16 {
		return nil, errors.New("bad vector size")
	}
	n := r.uvarint()
	size := min(n, len(r.b)/18)
	x.Hashes, x.Lens, x.records = make([][16]byte, 0, size), make([]int, 0, size), make([][]byte, 0, size)
	var total int
	for i := 0; i < n && r.err == nil; i++ {
		h := [16]byte(append([]byte(nil), r.bytes(16)...)[:16:16])
		words := r.uvarint()
		rec := r.bytes(r.uvarint())
		if r.err != nil {
			break
		}
		x.ByHash[h] = len(x.Hashes)
		x.Hashes = append(x.Hashes, h)
		x.Lens = append(x.Lens, words)
		x.records = append(x.records, rec)
		total += words
	}
	if len(x.Hashes) > 0 {
		x.AvgLen = float64(total) / float64(len(x.Hashes))
	}
	nt := r.uvarint()
	x.postings = make(map[string][]byte, min(nt, len(r.b)))
	for i := 0; i < nt && r.err == nil; i++ {
		t := string(r.bytes(r.uvarint()))
		x.postings[t] = r.bytes(r.uvarint())
	}
	if d := x.Header.Dim; d > 0 {
		x.vectors = r.bytes(4 * d * len(x.Hashes))
	}
	if r.err == nil && len(r.b) != 0 {
		return nil, errors.New("bytes after the vectors")
	}
	return x, r.err
}
