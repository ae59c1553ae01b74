package segment

import (
	"bytes"
	"fmt"
	"reflect"
	"testing"
)

// versionsFixture is two versions of one file of ten functions: the second
// edits the fifth function's body and moves every function after it down
// three lines and forty bytes, so the versions share nine chunks' content.
func versionsFixture() (shas [][20]byte, rows [][]Row) {
	for v := range 2 {
		var rs []Row
		for i := range 10 {
			r := Row{Parent: -1, Kind: "function", Language: "go", Name: fmt.Sprintf("F%d", i), Indexed: true,
				StartLine: 1 + 10*i, EndLine: 8 + 10*i, StartByte: 100 * i, EndByte: 100*i + 90,
				Signature: fmt.Sprintf("func F%d()", i), MetaBytes: EncodeMeta(Meta{Doc: fmt.Sprintf("F%d does %d.", i, i)})}
			r.Hash[0], r.Hash[1] = byte(i+1), 1
			switch {
			case v == 1 && i == 4:
				r.Hash[1], r.EndLine, r.EndByte = 2, r.EndLine+3, r.EndByte+40
				r.SyntaxError = true
			case v == 1 && i > 4:
				r.StartLine, r.EndLine, r.StartByte, r.EndByte = r.StartLine+3, r.EndLine+3, r.StartByte+40, r.EndByte+40
			}
			rs = append(rs, r)
		}
		shas = append(shas, [20]byte{byte(10 - v)}) // the second version sorts first
		rows = append(rows, rs)
	}
	return shas, rows
}

// TestUnitsStoredOnce: rows of two versions that share nine of ten chunks
// refer to eleven units, each stored once with its name, signature and
// Meta, and every row decodes to the row that was written; a merge that
// keeps one version keeps only its units.
func TestUnitsStoredOnce(t *testing.T) {
	shas, rows := versionsFixture()
	var w TableWriter
	for b := range shas {
		w.AddBlob(shas[b], BlobInfo{Size: 1000}, rows[b])
	}
	data := w.Encode()
	ct, err := ParseTable(data)
	if err != nil {
		t.Fatal(err)
	}
	if ct.Nrows != 20 || ct.Nunits != 11 {
		t.Fatalf("%d rows of %d units, want 20 of 11", ct.Nrows, ct.Nunits)
	}
	if n := bytes.Count(data, []byte("F3 does 3.")); n > 1 {
		t.Errorf("a shared unit's Meta appears %d times in the file", n)
	}
	if want := len("F0F1F2F3F4F5F6F7F8F9"); len(ct.names) != want {
		t.Errorf("names heap of %d bytes, want %d: each name once", len(ct.names), want)
	}
	for b := range shas {
		i, _ := ct.BlobIndex(shas[b])
		first, n := ct.BlobRange(i)
		got, err := ct.Details(first, n)
		if err != nil {
			t.Fatal(err)
		}
		for k := range rows[b] {
			want := rows[b][k]
			want.Blob = i
			if g := ct.RowDetail(first + k); !reflect.DeepEqual(g, want) || !reflect.DeepEqual(got[k], want) {
				t.Fatalf("blob %d row %d = %+v (Details %+v), want %+v", b, k, g, got[k], want)
			}
			want.Signature, want.MetaBytes = "", nil
			if g := ct.Row(first + k); !reflect.DeepEqual(g, want) {
				t.Fatalf("blob %d row %d = %+v, want %+v", b, k, g, want)
			}
		}
	}
	// Rows of the second version refer to the first version's units but
	// the fifth: the first copy of each shared content is in version one.
	for k := range 10 {
		first := ct.firstCopy(10 + k)
		if want := k; k == 4 {
			want = 14
			if first != want {
				t.Errorf("edited row's first copy %d, want %d", first, want)
			}
		} else if first != want {
			t.Errorf("row %d's first copy %d, want %d", 10+k, first, want)
		}
	}
	if _, n := ct.VectorIndex(); n != 11 {
		t.Errorf("%d vectors stored for 11 distinct contents", n)
	}

	// Keeping only the second version keeps its ten units.
	i, _ := ct.BlobIndex(shas[1])
	first, n := ct.BlobRange(i)
	kept, err := ct.Details(first, n)
	if err != nil {
		t.Fatal(err)
	}
	var m TableWriter
	m.AddBlob(shas[1], ct.BlobInfo(i), kept)
	merged, err := ParseTable(m.Encode())
	if err != nil {
		t.Fatal(err)
	}
	if merged.Nunits != 10 {
		t.Errorf("%d units after dropping a version, want 10", merged.Nunits)
	}
	checkRows(t, merged, rows[1:])
}

// TestUnitKeyCoversRow: rows with one content hash that differ in
// anything a unit holds (kind, name, lines, signature, Meta, syntax error,
// text of their own) get units of their own and decode as written.
func TestUnitKeyCoversRow(t *testing.T) {
	base := Row{Parent: -1, Kind: "function", Language: "go", Name: "F", Indexed: true, StartLine: 1, EndLine: 5,
		EndByte: 50, Signature: "func F()", MetaBytes: EncodeMeta(Meta{Doc: "F."}), Hash: [16]byte{7}}
	vary := []func(r *Row){
		func(r *Row) {},
		func(r *Row) { r.Kind = "method" },
		func(r *Row) { r.Language = "c" },
		func(r *Row) { r.Name = "G" },
		func(r *Row) { r.EndLine++ },
		func(r *Row) { r.EndByte++ },
		func(r *Row) { r.Signature = "func G()" },
		func(r *Row) { r.MetaBytes = EncodeMeta(Meta{Doc: "G."}) },
		func(r *Row) { r.SyntaxError = true },
		func(r *Row) { r.Indexed = false },
		func(r *Row) { r.StartLine, r.EndLine, r.StartByte, r.EndByte = 9, 13, 70, 120 }, // same unit, moved
	}
	var rows []Row
	for _, f := range vary {
		r := base
		f(&r)
		rows = append(rows, r)
	}
	var w TableWriter
	w.AddBlob([20]byte{1}, BlobInfo{}, rows)
	ct, err := ParseTable(w.Encode())
	if err != nil {
		t.Fatal(err)
	}
	if ct.Nunits != len(vary)-1 {
		t.Errorf("%d units, want %d", ct.Nunits, len(vary)-1)
	}
	for k, want := range rows {
		if got := ct.RowDetail(k); !reflect.DeepEqual(got, want) {
			t.Errorf("row %d = %+v, want %+v", k, got, want)
		}
	}
}
