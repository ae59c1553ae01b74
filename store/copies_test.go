package store

import (
	"encoding/binary"
	"hash/crc32"
	"testing"
)

// TestCopiesColumn: each row names the segment's first row with its
// content; rows without text of their own name themselves. A segment
// written before the column (copiesLen 0) still opens and says it has none.
func TestCopiesColumn(t *testing.T) {
	h := func(b byte) [16]byte { return [16]byte{b, 1, 2, 3} }
	var w SegmentWriter
	w.AddBlob([20]byte{1}, BlobInfo{Size: 10}, []Row{
		{Kind: "file", Parent: -1},                               // 0: no text of its own
		{Kind: "function", Parent: 0, Indexed: true, Hash: h(7)}, // 1
		{Kind: "function", Parent: 0, Indexed: true, Hash: h(8)}, // 2
	})
	w.AddBlob([20]byte{2}, BlobInfo{Size: 10}, []Row{
		{Kind: "file", Parent: -1},                               // 3
		{Kind: "function", Parent: 3, Indexed: true, Hash: h(8)}, // 4: copy of 2
		{Kind: "function", Parent: 3, Indexed: true, Hash: h(9)}, // 5
		{Kind: "function", Parent: 3, Indexed: true, Hash: h(7)}, // 6: copy of 1
	})
	data := w.Encode()
	ct, err := ParseChunkTable(data)
	if err != nil {
		t.Fatal(err)
	}
	want := []int{0, 1, 2, 3, 2, 5, 1}
	for r, c := range want {
		if got, ok := ct.firstCopy(r); !ok || got != c {
			t.Errorf("row %d: first copy %d (column %v), want %d", r, got, ok, c)
		}
	}

	// The same segment as written before the column existed.
	old := append([]byte(nil), data[:len(data)-4*len(want)]...)
	binary.LittleEndian.PutUint32(old[32:], 0)
	binary.LittleEndian.PutUint32(old[28:], crc32.Checksum(old[headerSize:], castagnoli))
	binary.LittleEndian.PutUint32(old[60:], crc32.Checksum(old[:60], castagnoli))
	ct, err = ParseChunkTable(old)
	if err != nil {
		t.Fatalf("segment without copies column: %v", err)
	}
	for r := range want {
		if got, ok := ct.firstCopy(r); ok || got != r {
			t.Errorf("old segment row %d: first copy %d, column %v; want itself and no column", r, got, ok)
		}
	}
	if f := ct.firstOfRow(5); f != 3 {
		t.Errorf("row 5's blob starts at row %d, want 3", f)
	}

	// A column of the wrong length is refused, never read past its end.
	bad := append([]byte(nil), data...)
	binary.LittleEndian.PutUint32(bad[32:], 4)
	bad = bad[:len(bad)-4*len(want)+4]
	binary.LittleEndian.PutUint32(bad[28:], crc32.Checksum(bad[headerSize:], castagnoli))
	binary.LittleEndian.PutUint32(bad[60:], crc32.Checksum(bad[:60], castagnoli))
	if _, err := ParseChunkTable(bad); err == nil {
		t.Error("a copies column shorter than the rows was accepted")
	}
}
