package segment

import (
	"encoding/binary"
	"errors"
)

// Meta is a chunk's descriptive metadata, shown in results but not used to
// find rows.
type Meta struct {
	QualifiedName string   `json:"qualified_name,omitempty"`
	Access        string   `json:"access,omitempty"`
	Decorators    []string `json:"decorators,omitempty"`
	Imports       []string `json:"imports,omitempty"`
	Doc           string   `json:"doc,omitempty"`
	ErrorDetail   string   `json:"syntax_error,omitempty"`
}

// Encode appends the metadata to e.
func (m *Meta) Encode(e *Encoder) {
	e.Str(m.QualifiedName)
	e.Str(m.Access)
	e.Strs(m.Decorators)
	e.Strs(m.Imports)
	e.Str(m.Doc)
	e.Str(m.ErrorDetail)
}

// Decode reads metadata written by Encode.
func (m *Meta) Decode(d *Decoder) {
	m.QualifiedName = d.Str()
	m.Access = d.Str()
	m.Decorators = d.Strs()
	m.Imports = d.Strs()
	m.Doc = d.Str()
	m.ErrorDetail = d.Str()
}

// Encoder appends the varint-framed fields of rows and records.
type Encoder struct{ Buf []byte }

func (e *Encoder) Uint(v uint64) { e.Buf = binary.AppendUvarint(e.Buf, v) }
func (e *Encoder) Str(s string)  { e.Uint(uint64(len(s))); e.Buf = append(e.Buf, s...) }
func (e *Encoder) Strs(ss []string) {
	e.Uint(uint64(len(ss)))
	for _, s := range ss {
		e.Str(s)
	}
}
func (e *Encoder) Bool(v bool) {
	if v {
		e.Buf = append(e.Buf, 1)
	} else {
		e.Buf = append(e.Buf, 0)
	}
}

// Decoder reads what Encoder wrote; the first error sticks in Err.
type Decoder struct {
	Buf []byte
	Err error
}

// ErrTruncated is a record or row that ends before its fields do.
var ErrTruncated = errors.New("record truncated")

func (d *Decoder) Uint() uint64 {
	if d.Err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.Buf)
	if n <= 0 {
		d.Err = ErrTruncated
		return 0
	}
	d.Buf = d.Buf[n:]
	return v
}

func (d *Decoder) Bytes(n int) []byte {
	if d.Err != nil || n < 0 || n > len(d.Buf) {
		d.Err = ErrTruncated
		return nil
	}
	b := d.Buf[:n]
	d.Buf = d.Buf[n:]
	return b
}

func (d *Decoder) Str() string { return string(d.Bytes(int(d.Uint()))) }
func (d *Decoder) Strs() []string {
	n := d.Uint()
	if d.Err != nil || n > uint64(len(d.Buf)) {
		d.Err = ErrTruncated
		return nil
	}
	var out []string
	for i := uint64(0); i < n; i++ {
		out = append(out, d.Str())
	}
	return out
}
func (d *Decoder) Bool() bool {
	b := d.Bytes(1)
	return len(b) == 1 && b[0] == 1
}
