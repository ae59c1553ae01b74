package gitindex

import (
	"fmt"
	"strings"
	"testing"
)

// segmentFixture is three blobs: one with rows whose signatures and
// metadata vary (empty, long, with every Meta field), one skipped blob
// without rows, and one with a single row.
func segmentFixture() (shas [][20]byte, rows [][]Row) {
	full := Meta{QualifiedName: "pkg.T.M", Access: "public", Decorators: []string{"@a", "@b"},
		Imports: []string{"fmt", "os"}, Doc: "M does it.", ErrorDetail: "line 3: missing ')'"}
	for b, n := range []int{4, 0, 1} {
		var sha [20]byte
		copy(sha[:], fmt.Sprintf("blob-%d-%s", b, strings.Repeat("x", 20)))
		shas = append(shas, sha)
		var rs []Row
		for i := 0; i < n; i++ {
			r := Row{Parent: i - 1, Kind: "function", Language: "go", Name: fmt.Sprintf("F%d_%d", b, i),
				StartLine: i + 1, EndLine: i + 2, StartByte: 10 * i, EndByte: 10*i + 9, Indexed: i%2 == 0}
			switch i {
			case 1:
				r.Signature = "func F1(" + strings.Repeat("arg int, ", 500) + ")"
				r.meta = encodeMeta(full)
			case 2:
				r.Signature = "func F2()"
				r.meta = encodeMeta(Meta{Doc: "F2 is second."})
			}
			r.Hash[0] = byte(b*16 + i + 1)
			rs = append(rs, r)
		}
		rows = append(rows, rs)
	}
	return shas, rows
}

func checkRows(t *testing.T, ct *chunkTable, want [][]Row) {
	t.Helper()
	// Visit rows out of order, so that the details cache changes blobs.
	var order []int
	for i := ct.nrows - 1; i >= 0; i -= 2 {
		order = append(order, i)
	}
	for i := ct.nrows - 2; i >= 0; i -= 2 {
		order = append(order, i)
	}
	var flat []Row
	for _, rs := range want {
		flat = append(flat, rs...)
	}
	if ct.nrows != len(flat) {
		t.Fatalf("%d rows, want %d", ct.nrows, len(flat))
	}
	for _, i := range order {
		w := flat[i]
		got := ct.row(i)
		if got.Name != w.Name || got.Kind != w.Kind || got.Hash != w.Hash || got.StartByte != w.StartByte || got.Indexed != w.Indexed {
			t.Fatalf("row %d = %+v, want %+v", i, got, w)
		}
		if got.Signature != "" || got.meta != nil {
			t.Fatalf("row %d: Row decoded details (%q)", i, got.Signature)
		}
		d := ct.rowDetail(i)
		if d.Signature != w.Signature || fmt.Sprintf("%+v", d.Meta()) != fmt.Sprintf("%+v", w.Meta()) {
			t.Fatalf("row %d detail: %q %+v, want %q %+v", i, d.Signature, d.Meta(), w.Signature, w.Meta())
		}
	}
}

func TestSegmentDetailsRoundTrip(t *testing.T) {
	shas, rows := segmentFixture()
	var w segmentWriter
	for b := range shas {
		w.addBlob(shas[b], BlobInfo{Size: 100}, rows[b])
	}
	ct, err := parseChunkTable(w.encode())
	if err != nil {
		t.Fatal(err)
	}
	checkRows(t, ct, rows)

	// A merge copies each blob's compressed details as they are.
	var m segmentWriter
	for b := range shas {
		i, ok := ct.blobIndex(shas[b])
		if !ok {
			t.Fatalf("blob %d not found", b)
		}
		first, n := ct.blobRange(i)
		frame, err := ct.detailFrame(i)
		if err != nil {
			t.Fatal(err)
		}
		var copied []Row
		for r := first; r < first+n; r++ {
			row := ct.row(r)
			if row.Parent >= 0 {
				row.Parent -= first
			}
			copied = append(copied, row)
		}
		m.addBlobDetails(shas[b], ct.blobInfo(i), copied, frame)
	}
	merged, err := parseChunkTable(m.encode())
	if err != nil {
		t.Fatal(err)
	}
	checkRows(t, merged, rows)
}

func TestSegmentCorruptDetails(t *testing.T) {
	shas, rows := segmentFixture()
	var w segmentWriter
	for b := range shas {
		w.addBlob(shas[b], BlobInfo{}, rows[b])
	}
	data := w.encode()
	ct, err := parseChunkTable(data)
	if err != nil {
		t.Fatal(err)
	}
	// Overwrite the details section: rows still decode, details come back
	// empty and the error says the segment is corrupt.
	for i := range ct.details {
		ct.details[i] = 0xff
	}
	for i := 0; i < ct.nrows; i++ {
		if r := ct.rowDetail(i); r.Name == "" || r.Signature != "" {
			t.Fatalf("row %d: %+v", i, r)
		}
	}
	if _, err := ct.blobDetails(0); err == nil {
		t.Fatal("corrupt details decompressed without error")
	}
	if _, err := parseChunkTable(data[:len(data)-1]); err == nil {
		t.Fatal("truncated table parsed")
	}
}
