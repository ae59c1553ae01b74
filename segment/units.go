package segment

import (
	"encoding/binary"
	"fmt"
)

// A row refers to its unit (see chunks.go): these read a row's unit and
// the units' frames of details.

// unitOf returns row i's unit (Nunits, past the last, in a table whose
// references were not checked and are wrong).
func (t *Table) unitOf(i int) int {
	return min(int(binary.LittleEndian.Uint32(t.refs[i*refSize:])), t.Nunits)
}

// zeroUnit stands in for a unit out of range.
var zeroUnit [unitSize]byte

// unitRec returns unit u's record.
func (t *Table) unitRec(u int) []byte {
	if u >= t.Nunits {
		return zeroUnit[:]
	}
	return t.units[u*unitSize : (u+1)*unitSize]
}

// rowHash reads the references, the hashes and the copies columns only,
// never the row or the unit record.
func (t *Table) rowHash(i int) (h [16]byte, indexed bool) {
	u := int(binary.LittleEndian.Uint32(t.refs[i*refSize:]))
	if u >= t.Nunits {
		return h, false
	}
	return [16]byte(t.hashes[u*hashSize : (u+1)*hashSize]), binary.LittleEndian.Uint32(t.copies[u*copySize:]) != noText
}

// copyEntry returns row i's copies entry, its unit's (noText for a unit
// out of range). Read as a row, noText and selfCopy are past every row, so
// a row whose entry is not a row before it is its own first copy.
func (t *Table) copyEntry(i int) uint32 {
	u := int(binary.LittleEndian.Uint32(t.refs[i*refSize:]))
	if u >= t.Nunits {
		return noText
	}
	return binary.LittleEndian.Uint32(t.copies[u*copySize:])
}

// indexed reports whether row i has text of its own.
func (t *Table) indexed(i int) bool { return t.copyEntry(i) != noText }

// firstCopy returns the first row with row i's content hash (i itself when
// it is the first or has no text of its own).
func (t *Table) firstCopy(i int) int {
	c, _ := t.copyOf(i)
	return c
}

// copyOf returns firstCopy(i) and whether row i is a copy named
// otherwise than its first copy (the copies entry's renamedCopy bit).
func (t *Table) copyOf(i int) (first int, renamed bool) {
	c := t.copyEntry(i)
	if f := int(c &^ renamedCopy); f < i {
		return f, c&renamedCopy != 0
	}
	return i, false // a first copy, no text, or never written so: a first copy comes first
}

// unitFrame is one decompressed frame of details: each unit's signature
// and encoded Meta. Neither may be modified.
type unitFrame struct {
	sigs  []string
	metas [][]byte
}

// frame returns frame f of the details, decompressed, from the few
// decoded last when it is one of them.
func (t *Table) frame(f int) (*unitFrame, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, c := range t.recent {
		if c.frame == f {
			return c.d, nil
		}
	}
	d, err := t.decodeFrame(f)
	if err != nil {
		return nil, err
	}
	t.recent[t.next].frame, t.recent[t.next].d = f, d
	t.next = (t.next + 1) % len(t.recent)
	return d, nil
}

// decodeFrame decompresses frame f of the details and splits it by unit.
func (t *Table) decodeFrame(f int) (*unitFrame, error) {
	if f < 0 || f*frameSize >= len(t.frames) {
		return nil, fmt.Errorf("%w: details frame %d out of range", ErrCorrupt, f)
	}
	rec := t.frames[f*frameSize:]
	off, n := binary.LittleEndian.Uint32(rec[0:]), binary.LittleEndian.Uint32(rec[4:])
	if uint64(off)+uint64(n) > uint64(len(t.details)) {
		return nil, fmt.Errorf("%w: details frame %d out of range", ErrCorrupt, f)
	}
	raw, err := detailCodec.decoder().DecodeAll(t.details[off:off+n:off+n], nil)
	if err != nil {
		return nil, fmt.Errorf("%w: details frame %d: %v", ErrCorrupt, f, err)
	}
	count := min(unitsPerFrame, t.Nunits-f*unitsPerFrame)
	d := Decoder{Buf: raw}
	text := string(raw) // the signatures are substrings of one copy
	out := &unitFrame{sigs: make([]string, count), metas: make([][]byte, count)}
	for k := range count {
		n := int(d.Uint())
		at := len(raw) - len(d.Buf)
		d.Bytes(n)
		meta := d.Bytes(int(d.Uint()))
		if d.Err != nil {
			break
		}
		out.sigs[k], out.metas[k] = text[at:at+n], meta[:len(meta):len(meta)]
	}
	if d.Err != nil || len(d.Buf) != 0 {
		return nil, fmt.Errorf("%w: details frame %d does not hold its %d units", ErrCorrupt, f, count)
	}
	return out, nil
}
