package store

import (
	"encoding/binary"
	"encoding/json"
	"errors"

	"github.com/bcindex/bcindex/internal/checksum"
	"github.com/bcindex/bcindex/segment"
)

// bounded reads a count or length that cannot exceed what is left of d
// (any real one fits in the bytes it counts), so that a bad one neither
// overflows int nor allocates more than the file.
func bounded(d *segment.Decoder) int {
	v := d.Uint()
	if v > uint64(len(d.Buf)) {
		if d.Err == nil {
			d.Err = segment.ErrTruncated
		}
		return 0
	}
	return int(v)
}

func decodeSummaryIndex(b []byte) (*SummaryIndex, error) {
	if len(b) < len(SummaryMagic)+4 || string(b[:len(SummaryMagic)]) != SummaryMagic {
		return nil, errors.New("not a summary index")
	}
	body := b[:len(b)-4]
	if checksum.Sum(body) != binary.LittleEndian.Uint32(b[len(b)-4:]) {
		return nil, errors.New("checksum mismatch")
	}
	r := &segment.Decoder{Buf: body[len(SummaryMagic):]}
	x := &SummaryIndex{ByHash: map[[16]byte]int{}}
	if err := json.Unmarshal(r.Bytes(bounded(r)), &x.Header); err != nil && r.Err == nil {
		return nil, err
	}
	if x.Header.Dim < 0 || x.Header.Dim > 1<<16 {
		return nil, errors.New("bad vector size")
	}
	n := bounded(r)
	size := min(n, len(r.Buf)/18)
	x.Hashes, x.Lens, x.records = make([][16]byte, 0, size), make([]int, 0, size), make([][]byte, 0, size)
	var total int
	for i := 0; i < n && r.Err == nil; i++ {
		hb := r.Bytes(16)
		words := bounded(r)
		rec := r.Bytes(bounded(r))
		if r.Err != nil {
			break
		}
		h := [16]byte(hb)
		x.ByHash[h] = len(x.Hashes)
		x.Hashes = append(x.Hashes, h)
		x.Lens = append(x.Lens, words)
		x.records = append(x.records, rec)
		total += words
	}
	if len(x.Hashes) > 0 {
		x.AvgLen = float64(total) / float64(len(x.Hashes))
	}
	nt := bounded(r)
	x.postings = make(map[string][]byte, min(nt, len(r.Buf)))
	for i := 0; i < nt && r.Err == nil; i++ {
		t := string(r.Bytes(bounded(r)))
		x.postings[t] = r.Bytes(bounded(r))
	}
	if d := x.Header.Dim; d > 0 {
		x.vectors = r.Bytes(4 * d * len(x.Hashes))
	}
	if r.Err == nil && len(r.Buf) != 0 {
		return nil, errors.New("bytes after the vectors")
	}
	return x, r.Err
}
