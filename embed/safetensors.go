package embed

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
)

// safetensorsTensor is one entry of a safetensors header.
type safetensorsTensor struct {
	DType   string   `json:"dtype"`
	Shape   []int64  `json:"shape"`
	Offsets [2]int64 `json:"data_offsets"`
}

// parseSafetensors reads the header of a safetensors file: a little-endian
// u64 length, that many bytes of JSON, then the tensor data, which it
// returns with the tensors whose offsets it checked.
func parseSafetensors(b []byte) (map[string]safetensorsTensor, []byte, error) {
	if len(b) < 8 {
		return nil, nil, errors.New("not a safetensors file: too short")
	}
	n := binary.LittleEndian.Uint64(b)
	if n > uint64(len(b)-8) || n > 100<<20 {
		return nil, nil, fmt.Errorf("not a safetensors file: header of %d bytes in a %d-byte file", n, len(b))
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b[8:8+n], &raw); err != nil {
		return nil, nil, fmt.Errorf("safetensors header: %w", err)
	}
	data := b[8+n:]
	ts := make(map[string]safetensorsTensor, len(raw))
	for name, r := range raw {
		if name == "__metadata__" {
			continue
		}
		var t safetensorsTensor
		if err := json.Unmarshal(r, &t); err != nil {
			return nil, nil, fmt.Errorf("safetensors tensor %q: %w", name, err)
		}
		size, ok := dtypeSize(t.DType)
		if !ok {
			ts[name] = t // unsupported dtypes are refused only if used
			continue
		}
		count := int64(1)
		for _, d := range t.Shape {
			if d < 0 || (d > 0 && count > math.MaxInt64/8/d) {
				return nil, nil, fmt.Errorf("safetensors tensor %q: bad shape %v", name, t.Shape)
			}
			count *= d
		}
		if t.Offsets[0] < 0 || t.Offsets[1] < t.Offsets[0] || t.Offsets[1] > int64(len(data)) || t.Offsets[1]-t.Offsets[0] != count*size {
			return nil, nil, fmt.Errorf("safetensors tensor %q: data offsets %v do not hold %v %s values in %d bytes", name, t.Offsets, t.Shape, t.DType, len(data))
		}
		ts[name] = t
	}
	return ts, data, nil
}

func dtypeSize(dt string) (int64, bool) {
	switch dt {
	case "F32", "I32":
		return 4, true
	case "F16", "BF16":
		return 2, true
	case "I8", "U8":
		return 1, true
	case "I64", "F64":
		return 8, true
	}
	return 0, false
}

// floats converts a tensor to float32.
func floats(t safetensorsTensor, data []byte) ([]float32, error) {
	b := data[t.Offsets[0]:t.Offsets[1]]
	switch t.DType {
	case "F32":
		v := make([]float32, len(b)/4)
		for i := range v {
			v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
		}
		return v, nil
	case "F64":
		v := make([]float32, len(b)/8)
		for i := range v {
			v[i] = float32(math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:])))
		}
		return v, nil
	case "F16":
		v := make([]float32, len(b)/2)
		for i := range v {
			v[i] = halfToFloat(binary.LittleEndian.Uint16(b[2*i:]))
		}
		return v, nil
	case "BF16":
		v := make([]float32, len(b)/2)
		for i := range v {
			v[i] = math.Float32frombits(uint32(binary.LittleEndian.Uint16(b[2*i:])) << 16)
		}
		return v, nil
	case "I8":
		v := make([]float32, len(b))
		for i := range v {
			v[i] = float32(int8(b[i]))
		}
		return v, nil
	case "U8":
		v := make([]float32, len(b))
		for i := range v {
			v[i] = float32(b[i])
		}
		return v, nil
	}
	return nil, fmt.Errorf("dtype %s is not supported (want F32, F16, BF16 or I8)", t.DType)
}

// ints converts an integer tensor to int32.
func ints(t safetensorsTensor, data []byte) ([]int32, error) {
	b := data[t.Offsets[0]:t.Offsets[1]]
	switch t.DType {
	case "I32":
		v := make([]int32, len(b)/4)
		for i := range v {
			v[i] = int32(binary.LittleEndian.Uint32(b[4*i:]))
		}
		return v, nil
	case "I64":
		v := make([]int32, len(b)/8)
		for i := range v {
			x := int64(binary.LittleEndian.Uint64(b[8*i:]))
			if x < 0 || x > math.MaxInt32 {
				return nil, fmt.Errorf("value %d out of range", x)
			}
			v[i] = int32(x)
		}
		return v, nil
	}
	return nil, fmt.Errorf("dtype %s is not an integer type (want I32 or I64)", t.DType)
}

// halfToFloat converts an IEEE 754 binary16 value.
func halfToFloat(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	frac := uint32(h) & 0x3ff
	switch {
	case exp == 0x1f: // Inf, NaN
		return math.Float32frombits(sign | 0xff<<23 | frac<<13)
	case exp != 0: // normal
		return math.Float32frombits(sign | (exp+127-15)<<23 | frac<<13)
	case frac == 0: // ±0
		return math.Float32frombits(sign)
	}
	// Subnormal: frac × 2^-24.
	f := float32(frac) * (1.0 / (1 << 24))
	if sign != 0 {
		f = -f
	}
	return f
}

func (m *Model2Vec) loadTensors(b []byte) error {
	ts, data, err := parseSafetensors(b)
	if err != nil {
		return err
	}
	name := "embeddings"
	emb, ok := ts[name]
	if !ok {
		names := make([]string, 0, len(ts))
		for n, t := range ts {
			if len(t.Shape) == 2 {
				names = append(names, n)
			}
		}
		if len(names) == 0 {
			return errors.New(`no "embeddings" tensor and no 2-D tensor`)
		}
		slices.Sort(names)
		name = names[0]
		emb = ts[name]
	}
	if len(emb.Shape) != 2 || emb.Shape[0] == 0 || emb.Shape[1] == 0 {
		return fmt.Errorf("tensor %q has shape %v, want [rows, dim]", name, emb.Shape)
	}
	rows, dim := int(emb.Shape[0]), int(emb.Shape[1])
	switch emb.DType {
	case "F32", "F16", "BF16", "I8":
	default:
		return fmt.Errorf("tensor %q has dtype %s, want F32, F16, BF16 or I8", name, emb.DType)
	}
	if m.table, err = floats(emb, data); err != nil {
		return fmt.Errorf("tensor %q: %w", name, err)
	}
	m.dim = dim
	if emb.DType == "I8" {
		for _, sn := range []string{"scales", "scale", name + "_scale", name + "_scales"} {
			st, ok := ts[sn]
			if !ok {
				continue
			}
			sc, err := floats(st, data)
			if err != nil {
				return fmt.Errorf("tensor %q: %w", sn, err)
			}
			switch len(sc) {
			case 1:
				for i := range m.table {
					m.table[i] *= sc[0]
				}
			case rows:
				for r := range rows {
					for d := range dim {
						m.table[r*dim+d] *= sc[r]
					}
				}
			default:
				return fmt.Errorf("scale tensor %q has %d values for %d rows", sn, len(sc), rows)
			}
			break
		}
	}
	if t, ok := ts["weights"]; ok && name != "weights" {
		if m.weights, err = floats(t, data); err != nil {
			return fmt.Errorf(`tensor "weights": %w`, err)
		}
	}
	if t, ok := ts["mapping"]; ok {
		if m.mapping, err = ints(t, data); err != nil {
			return fmt.Errorf(`tensor "mapping": %w`, err)
		}
	}
	return nil
}
