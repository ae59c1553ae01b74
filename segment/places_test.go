package segment

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/internal/checksum"
)

// placesFixture is three blobs, one without rows, whose rows need the wide
// rows: a start line past 16 bits, and a parent more than 65,534 rows
// back (a file of 70,000 chunks); and a unit with text but no content
// hash, whose rows are each their own first copy.
func placesFixture() (*TableWriter, [][20]byte) {
	shas := [][20]byte{{9}, {3}, {5}}
	var w TableWriter
	w.AddBlob(shas[0], BlobInfo{Size: 1 << 20}, []Row{
		{Kind: "file", Parent: -1, EndLine: 100000, EndByte: 1 << 20},
		{Kind: "function", Parent: 0, Indexed: true, Hash: [16]byte{1}, Name: "F", StartLine: 70000, EndLine: 70010, StartByte: 900000, EndByte: 900400},
		{Kind: "block", Parent: 1, Indexed: true, Hash: [16]byte{2}, Name: "if", StartLine: 65535, EndLine: 65536, StartByte: 800000, EndByte: 800050},
		{Kind: "block", Parent: 1, Indexed: true, Name: "text", StartLine: 5, EndLine: 6, StartByte: 50, EndByte: 60},
		{Kind: "block", Parent: 1, Indexed: true, Name: "text", StartLine: 5, EndLine: 6, StartByte: 50, EndByte: 60},
	})
	w.AddBlob(shas[1], BlobInfo{Size: 0}, nil)
	big := make([]Row, 70000)
	big[0] = Row{Kind: "file", Parent: -1, EndLine: 70000}
	for i := 1; i < len(big); i++ {
		big[i] = Row{Kind: "function", Parent: 5, Indexed: true, Hash: [16]byte{byte(i % 7), 9}, Name: "G", StartLine: i / 2, EndLine: i/2 + 1}
	}
	w.AddBlob(shas[2], BlobInfo{Size: 70000}, big)
	return &w, shas
}

// TestRowPlacesRoundTrip: every row reads back its start line, parent and
// blob as written, the wide rows holding exactly the rows that do not fit
// 16 bits; the copies of the unit without a content hash are their own.
func TestRowPlacesRoundTrip(t *testing.T) {
	w, shas := placesFixture()
	ct, err := ParseTable(w.Encode())
	if err != nil {
		t.Fatal(err)
	}
	idx := w.BlobIndex()
	for bi, b := range w.Blobs {
		want, _ := idx(shas[bi])
		for r := b.first; r < b.first+b.n; r++ {
			got, exp := ct.Row(r), w.Rows[r]
			if got.Blob != want || got.Parent != exp.Parent || got.StartLine != exp.StartLine || got.EndLine != exp.EndLine ||
				got.StartByte != exp.StartByte || got.EndByte != exp.EndByte || got.Indexed != exp.Indexed || got.Hash != exp.Hash {
				t.Fatalf("row %d = %+v, want %+v in blob %d", r, got, exp, want)
			}
		}
	}
	// Rows 1 and 2 (start lines 70,000 and 65,535) and the last 4,465 of
	// the big blob (parents 65,535 rows back and more) are wide.
	if n := len(ct.wide) / wideSize; n != 2+4465 {
		t.Errorf("%d wide rows, want %d", n, 2+4465)
	}
	if len(ct.rows) != ct.Nrows*8 || len(ct.spans) != 2*spanSize {
		t.Errorf("rows of %d bytes for %d, %d bytes of spans for 2 blobs with rows", len(ct.rows), ct.Nrows, len(ct.spans))
	}
	if c, _ := ct.copyOf(4); c != 4 {
		t.Errorf("row 4, text without a hash, has first copy %d, want itself", c)
	}
	if ct.blobOfRow(ct.Nrows) != -1 || ct.blobOfRow(-1) != -1 {
		t.Error("a row out of range has a blob")
	}
}

// TestRowPlacesDamage: a table whose checksums match but whose wide rows,
// spans or copies entries disagree with its rows is refused.
func TestRowPlacesDamage(t *testing.T) {
	w, _ := placesFixture()
	data := w.Encode()
	ct, err := ParseTable(data)
	if err != nil {
		t.Fatal(err)
	}
	le := binary.LittleEndian
	at := func(sec []byte) int { return bytes.Index(data, sec) }
	cases := map[string]func(b []byte){
		"a row marked wide that is not among the wide rows": func(b []byte) { le.PutUint16(b[at(ct.rows)+3*rowSize+4:], wideMark) },
		"a wide row's mark cleared":                         func(b []byte) { le.PutUint16(b[at(ct.rows)+1*rowSize+4:], 7) },
		"a span starting a row late":                        func(b []byte) { le.PutUint32(b[at(ct.spans)+spanSize:], 6) },
		"a span naming another blob":                        func(b []byte) { le.PutUint32(b[at(ct.spans)+4:], 0) },
		"a first copy past the rows":                        func(b []byte) { le.PutUint32(b[at(ct.copies)+4:], uint32(ct.Nrows)) },
	}
	for name, damage := range cases {
		bad := bytes.Clone(data)
		damage(bad)
		le.PutUint32(bad[28:], checksum.Sum(bad[headerSize:]))
		le.PutUint32(bad[60:], checksum.Sum(bad[:60]))
		if _, err := ParseTable(bad); err == nil {
			t.Errorf("%s: accepted", name)
		} else if !strings.Contains(err.Error(), "row") && !strings.Contains(err.Error(), "span") && !strings.Contains(err.Error(), "copy") {
			t.Errorf("%s: %v", name, err)
		}
	}
}
