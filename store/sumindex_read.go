package store

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"hash/crc32"
	"math"
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
	x := &SummaryIndex{ByHash: map[[16]byte]int{}, Terms: map[string][]SummaryPosting{}}
	if err := json.Unmarshal(r.bytes(r.uvarint()), &x.Header); err != nil && r.err == nil {
		return nil, err
	}
	var total int
	n := r.uvarint()
	x.Entries = make([]SummaryEntry, 0, min(n, len(r.b)/18))
	x.Lens = make([]int, 0, cap(x.Entries))
	for i := 0; i < n && r.err == nil; i++ {
		var e SummaryEntry
		copy(e.Hash[:], r.bytes(16))
		words := r.uvarint()
		if err := json.Unmarshal(r.bytes(r.uvarint()), &e.Summary); err != nil && r.err == nil {
			return nil, err
		}
		x.ByHash[e.Hash] = len(x.Entries)
		x.Entries = append(x.Entries, e)
		x.Lens = append(x.Lens, words)
		total += words
	}
	if len(x.Entries) > 0 {
		x.AvgLen = float64(total) / float64(len(x.Entries))
	}
	nt := r.uvarint()
	for i := 0; i < nt && r.err == nil; i++ {
		t := string(r.bytes(r.uvarint()))
		np := r.uvarint()
		ps := make([]SummaryPosting, 0, min(np, len(r.b)/2))
		e := 0
		for j := 0; j < np && r.err == nil; j++ {
			e += r.uvarint()
			f := r.uvarint()
			if e >= len(x.Entries) {
				return nil, errors.New("posting past the last entry")
			}
			ps = append(ps, SummaryPosting{e, f})
		}
		x.Terms[t] = ps
	}
	if d := x.Header.Dim; d > 0 && r.err == nil {
		raw := r.bytes(4 * d * len(x.Entries))
		for i := 0; r.err == nil && i < len(x.Entries); i++ {
			v := make([]float32, d)
			for j := range v {
				v[j] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*(i*d+j):]))
			}
			x.Entries[i].Vector = v
		}
	}
	if r.err == nil && len(r.b) != 0 {
		return nil, errors.New("bytes after the vectors")
	}
	return x, r.err
}
