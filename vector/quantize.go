package vector

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"unsafe"
)

// maxDim is the largest vector dimension supported by records and segments.
const maxDim = 1 << 16

// Quantize maps an L2-normalised vector to int8 with a per-vector scale (v ≈ q*scale).
//
// q has len(v) values in [-127, 127] and scale = max|v_i|/127, so that
// |v_i - q_i*scale| <= scale/2. If v is empty, all zero, or has a NaN or
// infinite component, q is all zero and scale is 0: the row has no vector and
// never matches a query.
func Quantize(v []float32) (q []int8, scale float32) {
	q = make([]int8, len(v))
	var maxAbs float64
	for _, x := range v {
		a := math.Abs(float64(x))
		if !(a <= math.MaxFloat32) { // NaN or ±Inf
			return q, 0
		}
		if a > maxAbs {
			maxAbs = a
		}
	}
	if maxAbs == 0 {
		return q, 0
	}
	scale = float32(maxAbs / 127)
	if scale == 0 { // max|v_i| is subnormal: nothing survives the scale
		return q, 0
	}
	inv := 127 / maxAbs
	for i, x := range v {
		r := math.Round(float64(x) * inv)
		// float64 rounding cannot push |r| past 127, but be explicit.
		r = min(max(r, -127), 127)
		q[i] = int8(r)
	}
	return q, scale
}

// Key returns the Badger key of a stored vector: "v/<model>/<hash>", where
// model is the embedder's ID and hash the 16-byte content hash of the embedded
// text. The hash is appended as raw bytes.
func Key(model string, hash []byte) []byte {
	k := make([]byte, 0, 3+len(model)+len(hash))
	k = append(k, "v/"...)
	k = append(k, model...)
	k = append(k, '/')
	return append(k, hash...)
}

// Record layout (little-endian):
//
//	0   1 record version (1)
//	1   4 dim (uint32)
//	5   4 scale (float32 bits)
//	9 dim int8 values
const (
	recordVersion = 1
	recordHeader  = 9
)

// Encode returns the Badger value for a quantised vector. A nil or empty q
// encodes a record without vector (dim 0); its scale is stored as given.
// Decode rejects records longer than 65536 values and invalid scales, so
// encode only what Quantize produces.
func Encode(q []int8, scale float32) []byte {
	b := make([]byte, recordHeader+len(q))
	b[0] = recordVersion
	binary.LittleEndian.PutUint32(b[1:5], uint32(len(q)))
	binary.LittleEndian.PutUint32(b[5:9], math.Float32bits(scale))
	copy(b[recordHeader:], int8Bytes(q))
	return b
}

// Errors returned by Decode, wrapped with details.
var (
	errShortRecord   = errors.New("vector: record too short")
	errRecordVersion = errors.New("vector: unsupported record version")
	errRecordLength  = errors.New("vector: record length does not match its dimension")
	errRecordScale   = errors.New("vector: record has an invalid scale")
)

// Decode parses a value written by Encode. q is a fresh copy (it does not
// alias b, so it stays valid after a Badger transaction ends); it is nil for a
// record without vector.
func Decode(b []byte) (q []int8, scale float32, err error) {
	if len(b) < recordHeader {
		return nil, 0, fmt.Errorf("%w: %d bytes, need at least %d", errShortRecord, len(b), recordHeader)
	}
	if b[0] != recordVersion {
		return nil, 0, fmt.Errorf("%w %d (want %d)", errRecordVersion, b[0], recordVersion)
	}
	dim := binary.LittleEndian.Uint32(b[1:5])
	if dim > maxDim || uint64(len(b)-recordHeader) != uint64(dim) {
		return nil, 0, fmt.Errorf("%w: dim %d, %d data bytes", errRecordLength, dim, len(b)-recordHeader)
	}
	scale = math.Float32frombits(binary.LittleEndian.Uint32(b[5:9]))
	if !(scale >= 0 && scale <= math.MaxFloat32) {
		return nil, 0, fmt.Errorf("%w: %v", errRecordScale, scale)
	}
	if dim == 0 {
		return nil, scale, nil
	}
	q = make([]int8, dim)
	copy(int8Bytes(q), b[recordHeader:])
	return q, scale, nil
}

// int8Bytes views an int8 slice as bytes without copying.
func int8Bytes(q []int8) []byte {
	if len(q) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(q))), len(q))
}
