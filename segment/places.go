package segment

import (
	"encoding/binary"
	"fmt"
)

// A row's place in its blob (see chunks.go): its start byte, start line
// and parent in 8 bytes, the rare start line or parent that does not fit
// in the wide rows, and its blob in the spans.

// place returns row i's start line and parent (-1: none) from its record.
func (t *Table) place(i int, rec []byte) (line uint32, parent int) {
	le := binary.LittleEndian
	l, p := le.Uint16(rec[4:]), le.Uint16(rec[6:])
	if l == wideMark {
		return t.wideOf(i)
	}
	if p == 0 {
		return uint32(l), -1
	}
	return uint32(l), i - int(p)
}

// wideOf returns row i's start line and parent from the wide rows, by
// bisection (zero and none when the row is not among them).
func (t *Table) wideOf(i int) (line uint32, parent int) {
	le := binary.LittleEndian
	lo, hi := 0, len(t.wide)/wideSize
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if int(le.Uint32(t.wide[m*wideSize:])) < i {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo*wideSize >= len(t.wide) || int(le.Uint32(t.wide[lo*wideSize:])) != i {
		return 0, -1
	}
	rec := t.wide[lo*wideSize:]
	return le.Uint32(rec[4:]), int(int32(le.Uint32(rec[8:])))
}

// firstOfRow returns the first row of row i's blob, or -1 when the row's
// blob index is out of range.
func (t *Table) firstOfRow(i int) int {
	b := t.blobOfRow(i)
	if b < 0 {
		return -1
	}
	first, _ := t.BlobRange(b)
	return first
}

// blobOfRow returns the index of row i's blob in the table, or -1 when it
// is out of range: the span holding the row, by a bisection of the spans'
// first rows that halves a fixed count (one compare a step, no early exit).
func (t *Table) blobOfRow(i int) int {
	n := len(t.spans) / spanSize
	if i < 0 || i >= t.Nrows || n == 0 {
		return -1
	}
	le := binary.LittleEndian
	base := 0 // the last span whose first row is <= i is in base..base+n-1
	for n > 1 {
		half := n >> 1
		if int(le.Uint32(t.spans[(base+half)*spanSize:])) <= i {
			base += half
		}
		n -= half
	}
	if int(le.Uint32(t.spans[base*spanSize:])) > i {
		return -1
	}
	b := int(le.Uint32(t.spans[base*spanSize+4:]))
	if b >= t.Nblobs {
		return -1
	}
	return b
}

// checkPlaces checks what a row's place is read through: the wide rows
// are the marked rows, in order; the spans cover the rows in order, each
// the row range of its blob; each unit's copies entry names a row or none.
func (t *Table) checkPlaces() error {
	le := binary.LittleEndian
	nwide, k := len(t.wide)/wideSize, 0
	for i := 0; i < t.Nrows; i++ {
		if le.Uint16(t.rows[i*rowSize+4:]) != wideMark {
			continue
		}
		if k >= nwide || int(le.Uint32(t.wide[k*wideSize:])) != i {
			return fmt.Errorf("row %d: its start line and parent are not among the wide rows", i)
		}
		k++
	}
	if k != nwide {
		return fmt.Errorf("%d wide rows for %d marked rows", nwide, k)
	}
	next := 0
	for s := 0; s < len(t.spans)/spanSize; s++ {
		first, b := int(le.Uint32(t.spans[s*spanSize:])), int(le.Uint32(t.spans[s*spanSize+4:]))
		if b >= t.Nblobs {
			return fmt.Errorf("span %d: blob %d of %d", s, b, t.Nblobs)
		}
		bf, n := t.BlobRange(b)
		if first != next || bf != first || n == 0 {
			return fmt.Errorf("span %d: rows from %d of blob %d, whose rows are %d+%d, after row %d", s, first, b, bf, n, next)
		}
		next = first + n
	}
	if next != t.Nrows {
		return fmt.Errorf("the spans cover %d of %d rows", next, t.Nrows)
	}
	for u := 0; u < t.Nunits; u++ {
		c := le.Uint32(t.copies[u*copySize:])
		if c != noText && c != selfCopy && int(c&^renamedCopy) >= t.Nrows {
			return fmt.Errorf("unit %d: first copy %d of %d rows", u, c&^renamedCopy, t.Nrows)
		}
	}
	return nil
}
