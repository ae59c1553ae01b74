package segment

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/bcindex/bcindex/internal/checksum"
)

// copiesFixture is two blobs whose rows repeat content across the blobs,
// with rows that have no text of their own.
func copiesFixture() *TableWriter {
	h := func(b byte) [16]byte { return [16]byte{b, 1, 2, 3} }
	var w TableWriter
	w.AddBlob([20]byte{1}, BlobInfo{Size: 10}, []Row{
		{Kind: "file", Parent: -1}, // 0: no text of its own
		{Kind: "function", Parent: 0, Indexed: true, Hash: h(7), Name: "A"}, // 1
		{Kind: "function", Parent: 0, Indexed: true, Hash: h(8), Name: "B"}, // 2
	})
	w.AddBlob([20]byte{2}, BlobInfo{Size: 10}, []Row{
		{Kind: "file", Parent: -1, Hash: h(5)},                               // 3: a hash, but no text of its own
		{Kind: "function", Parent: 3, Indexed: true, Hash: h(8), Name: "B"},  // 4: copy of 2
		{Kind: "function", Parent: 3, Indexed: true, Hash: h(9), Name: "C"},  // 5
		{Kind: "function", Parent: 3, Indexed: true, Hash: h(7), Name: "A"},  // 6: copy of 1
		{Kind: "block", Parent: 5, Indexed: true, Hash: h(8), Name: "if@L9"}, // 7: copy of 2 named otherwise
	})
	return &w
}

// TestCopiesColumn: each row names the segment's first row with its
// content, and a copy whether its name is another than its first copy's;
// rows without text of their own name themselves. The hash and
// whether a row has text come from the columns, and agree with the rows
// that were written.
func TestCopiesColumn(t *testing.T) {
	w := copiesFixture()
	data := w.Encode()
	ct, err := ParseTable(data)
	if err != nil {
		t.Fatal(err)
	}
	want := []int{0, 1, 2, 3, 2, 5, 1, 2}
	for r, c := range want {
		if got := ct.firstCopy(r); got != c {
			t.Errorf("row %d: first copy %d, want %d", r, got, c)
		}
		if got, renamed := ct.copyOf(r); got != c || renamed != (r == 7) {
			t.Errorf("row %d: copy of %d, renamed %v; want %d, %v", r, got, renamed, c, r == 7)
		}
		h, indexed := ct.rowHash(r)
		if h != w.Rows[r].Hash || indexed != w.Rows[r].Indexed {
			t.Errorf("row %d: hash %x indexed %v, want %x %v", r, h, indexed, w.Rows[r].Hash, w.Rows[r].Indexed)
		}
		if row := ct.Row(r); row.Hash != w.Rows[r].Hash || row.Indexed != w.Rows[r].Indexed || row.Name != w.Rows[r].Name {
			t.Errorf("row %d = %+v, want %+v", r, row, w.Rows[r])
		}
	}
	// A copy, renamed or not, shares its first copy's stored vector.
	if idx, n := ct.VectorIndex(); n != 3 || idx[7] != idx[2] || idx[4] != idx[2] || idx[6] != idx[1] || idx[0] != -1 {
		t.Errorf("vector index %v of %d stored, want rows 4 and 7 on row 2's, 6 on 1's, 0 on none, 3 stored", idx, n)
	}
	if f := ct.firstOfRow(5); f != 3 {
		t.Errorf("row 5's blob starts at row %d, want 3", f)
	}
	// The hashes are a column right after the header, the rows hold none.
	if len(ct.rows) != len(want)*rowSize || !bytes.Equal(data[headerSize+16:headerSize+32], ct.hashes[16:32]) {
		t.Errorf("rows of %d bytes, hashes at %d", len(ct.rows), bytes.Index(data, ct.hashes))
	}
}

// TestChunkTableDamage: a flipped byte in any section, the new columns
// included, or a truncation fails the checksum; a header whose sizes do
// not add up to the file is refused even with checksums that match.
func TestChunkTableDamage(t *testing.T) {
	data := copiesFixture().Encode()
	ct, err := ParseTable(data)
	if err != nil {
		t.Fatal(err)
	}
	sections := map[string][]byte{"hashes": ct.hashes, "copies": ct.copies, "refs": ct.refs, "rows": ct.rows,
		"units": ct.units, "unames": ct.unames, "blobs": ct.blobs, "frames": ct.frames, "names": ct.names, "details": ct.details}
	for name, sec := range sections {
		at := bytes.Index(data, sec)
		for _, off := range []int{at, at + len(sec) - 1} {
			bad := bytes.Clone(data)
			bad[off] ^= 0x10
			if _, err := ParseTable(bad); err == nil {
				t.Errorf("%s: a flipped byte at %d was accepted", name, off)
			}
		}
	}
	for _, n := range []int{len(data) - 1, headerSize + 16*len(copiesFixture().Rows), headerSize} {
		if _, err := ParseTable(data[:n]); err == nil {
			t.Errorf("table truncated to %d bytes was accepted", n)
		}
	}
	// One row fewer in the header, checksums recomputed: the sizes no
	// longer add up.
	bad := bytes.Clone(data)
	binary.LittleEndian.PutUint32(bad[12:], binary.LittleEndian.Uint32(bad[12:])-1)
	binary.LittleEndian.PutUint32(bad[60:], checksum.Sum(bad[:60]))
	if _, err := ParseTable(bad); err == nil {
		t.Error("a header with one row fewer than the file was accepted")
	}
}
