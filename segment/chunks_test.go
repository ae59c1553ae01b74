package segment

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
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
				r.MetaBytes = EncodeMeta(full)
			case 2:
				r.Signature = "func F2()"
				r.MetaBytes = EncodeMeta(Meta{Doc: "F2 is second."})
			}
			r.Hash[0] = byte(b*16 + i + 1)
			rs = append(rs, r)
		}
		rows = append(rows, rs)
	}
	return shas, rows
}

func checkRows(t *testing.T, ct *Table, want [][]Row) {
	t.Helper()
	// Visit rows out of order, so that the details cache changes blobs.
	var order []int
	for i := ct.Nrows - 1; i >= 0; i -= 2 {
		order = append(order, i)
	}
	for i := ct.Nrows - 2; i >= 0; i -= 2 {
		order = append(order, i)
	}
	var flat []Row
	for _, rs := range want {
		flat = append(flat, rs...)
	}
	if ct.Nrows != len(flat) {
		t.Fatalf("%d rows, want %d", ct.Nrows, len(flat))
	}
	for _, i := range order {
		w := flat[i]
		got := ct.Row(i)
		if got.Name != w.Name || got.Kind != w.Kind || got.Hash != w.Hash || got.StartByte != w.StartByte || got.Indexed != w.Indexed {
			t.Fatalf("row %d = %+v, want %+v", i, got, w)
		}
		if got.Signature != "" || got.MetaBytes != nil {
			t.Fatalf("row %d: Row decoded details (%q)", i, got.Signature)
		}
		d := ct.RowDetail(i)
		if d.Signature != w.Signature || fmt.Sprintf("%+v", d.Meta()) != fmt.Sprintf("%+v", w.Meta()) {
			t.Fatalf("row %d detail: %q %+v, want %q %+v", i, d.Signature, d.Meta(), w.Signature, w.Meta())
		}
	}
}

func TestSegmentDetailsRoundTrip(t *testing.T) {
	shas, rows := segmentFixture()
	var w TableWriter
	for b := range shas {
		w.AddBlob(shas[b], BlobInfo{Size: 100}, rows[b])
	}
	ct, err := ParseTable(w.Encode())
	if err != nil {
		t.Fatal(err)
	}
	checkRows(t, ct, rows)

	// A merge adds each blob's rows as Details decodes them.
	var m TableWriter
	for b := range shas {
		i, ok := ct.BlobIndex(shas[b])
		if !ok {
			t.Fatalf("blob %d not found", b)
		}
		first, n := ct.BlobRange(i)
		copied, err := ct.Details(first, n)
		if err != nil {
			t.Fatal(err)
		}
		for r := range copied {
			if copied[r].Parent >= 0 {
				copied[r].Parent -= first
			}
		}
		m.AddBlob(shas[b], ct.BlobInfo(i), copied)
	}
	merged, err := ParseTable(m.Encode())
	if err != nil {
		t.Fatal(err)
	}
	checkRows(t, merged, rows)
}

func TestSegmentCorruptDetails(t *testing.T) {
	shas, rows := segmentFixture()
	var w TableWriter
	for b := range shas {
		w.AddBlob(shas[b], BlobInfo{}, rows[b])
	}
	data := w.Encode()
	ct, err := ParseTable(data)
	if err != nil {
		t.Fatal(err)
	}
	// Overwrite the details section: rows still decode, details come back
	// empty and the error says the segment is corrupt.
	for i := range ct.details {
		ct.details[i] = 0xff
	}
	for i := 0; i < ct.Nrows; i++ {
		if r := ct.RowDetail(i); r.Name == "" || r.Signature != "" {
			t.Fatalf("row %d: %+v", i, r)
		}
	}
	if _, err := ct.decodeFrame(0); err == nil {
		t.Fatal("corrupt details decompressed without error")
	}
	if _, err := ParseTable(data[:len(data)-1]); err == nil {
		t.Fatal("truncated table parsed")
	}
}

// TestClipKeepsCharacters: a clip never ends inside a UTF-8 character.
func TestClipKeepsCharacters(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"abc", 5, "abc"},
		{"abc", 2, "ab"},
		{"aé", 2, "a"},  // é is two bytes
		{"aé", 3, "aé"}, //
		{"a😀b", 4, "a"}, // the emoji is four bytes
		{"a😀b", 5, "a😀"},
		{"😀", 2, ""},
	} {
		if got := Clip(tc.s, tc.n); got != tc.want || !utf8.ValidString(got) {
			t.Errorf("Clip(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}
