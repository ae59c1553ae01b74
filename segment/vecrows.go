package segment

import (
	"encoding/binary"
	"fmt"

	"github.com/bcindex/bcindex/vector"
)

// A segment stores one vector per distinct content: the rows with text of
// their own whose content hash first appears at them (their copies entry
// names themselves) hold the stored vectors, in row order; a later row
// with the same hash shares its first copy's, and a row without text of
// its own has none. The copies column is thus also the map from rows to
// stored vectors (vectorIndex), and a history whose versions repeat most
// functions stores each function's vector once per segment.

// vectorIndex maps each of the n rows of a copies column (copies returns a
// row's entry) to its stored vector (-1: none) and returns how many
// vectors are stored.
func vectorIndex(copies func(r int) uint32, n int) ([]int32, int) { return slotIndex(copies, n, nil) }

// slotIndex is vectorIndex with the i-th distinct content's vector at
// slots[i] when slots is not nil (the caller checks that there are
// enough; a content past them has none).
func slotIndex(copies func(r int) uint32, n int, slots []uint32) ([]int32, int) {
	idx := make([]int32, n)
	next := int32(0)
	for r := 0; r < n; r++ {
		c := copies(r)
		switch {
		case c == noText:
			idx[r] = -1
		case int(c&^renamedCopy) < r:
			idx[r] = idx[c&^renamedCopy]
		default:
			idx[r] = next
			if slots != nil {
				idx[r] = -1
				if int(next) < len(slots) {
					idx[r] = int32(slots[next])
				}
			}
			next++
		}
	}
	return idx, int(next)
}

// VectorIndex maps each row of the table to its stored vector (-1: none)
// and returns how many vectors the segment stores.
func (t *Table) VectorIndex() ([]int32, int) { return vectorIndex(t.copyEntry, t.Nrows) }

// StoredHashes returns the content hash of each of the table's distinct
// contents, in VectorIndex order.
func (t *Table) StoredHashes() [][16]byte {
	idx, n := t.VectorIndex()
	out := make([][16]byte, n)
	next := int32(0)
	for r, i := range idx {
		if i == next {
			out[i], _ = t.rowHash(r)
			next++
		}
	}
	return out
}

// StoredVectors keeps of v, one vector per row added to the writer, the
// vectors the segment stores: one per distinct content, the first copy's
// (or a later copy's, if the first has none). It returns each one's
// content hash with them.
func (w *Writer) StoredVectors(v *VectorRows) (*VectorRows, [][16]byte, error) {
	rows := w.Table.Rows
	if len(v.Q) != len(rows) || len(v.Scales) != len(rows) {
		return nil, nil, fmt.Errorf("%d vectors for %d rows", len(v.Q), len(rows))
	}
	copies := make([]byte, copySize*len(rows))
	copiesColumn(copies, rows)
	idx, n := vectorIndex(func(r int) uint32 { return binary.LittleEndian.Uint32(copies[r*copySize:]) }, len(rows))
	out := &VectorRows{Dim: v.Dim, Q: make([][]int8, n), Scales: make([]float32, n)}
	hashes := make([][16]byte, n)
	for r, i := range idx {
		if i >= 0 && out.Q[i] == nil && v.Q[r] != nil {
			out.Q[i], out.Scales[i] = v.Q[r], v.Scales[r]
		}
		if i >= 0 {
			hashes[i] = rows[r].Hash
		}
	}
	return out, hashes, nil
}

// mapVectors maps the rows of table t to the stored vectors of vec, which
// locator l names: the i-th distinct content's is the i-th stored vector,
// or, with slots, the one its slot names.
func mapVectors(t *Table, vec *vector.Segment, l *Locator) error {
	idx, n := slotIndex(t.copyEntry, t.Nrows, l.Slots)
	if n != l.Rows {
		return fmt.Errorf("%d vectors located for %d distinct contents", l.Rows, n)
	}
	if l.Slots == nil && n != vec.Stored() {
		return fmt.Errorf("%d vectors stored for %d distinct contents", vec.Stored(), n)
	}
	return vec.MapRows(idx)
}
