package segment

import (
	"fmt"
	"testing"
)

// historyTable is a segment of versions of files: files files of chunks
// chunks each, every version editing two chunks of the one before, as a
// history's segment holds them (versions of a file in consecutive blobs).
func historyTable(tb testing.TB, files, versions, chunks int) *Table {
	var w TableWriter
	for f := range files {
		hashes := make([][16]byte, chunks)
		for c := range hashes {
			hashes[c] = [16]byte{byte(f), byte(f >> 8), byte(c), byte(c >> 8)}
		}
		for v := range versions {
			if v > 0 {
				for _, c := range []int{(v * 7) % chunks, (v * 13) % chunks} {
					hashes[c][4], hashes[c][5] = byte(v), byte(v>>8)
				}
			}
			rows := make([]Row, chunks)
			for c := range rows {
				rows[c] = Row{Parent: -1, Kind: "function", Language: "go", Indexed: true, Hash: hashes[c],
					Name: fmt.Sprintf("function%d_%d", f, c), StartLine: 10 * c, EndLine: 10*c + 8,
					StartByte: 300 * c, EndByte: 300*c + 280, Signature: fmt.Sprintf("func function%d_%d(x int) error", f, c),
					MetaBytes: EncodeMeta(Meta{QualifiedName: fmt.Sprintf("pkg.function%d_%d", f, c), Doc: "Does the work."})}
			}
			w.AddBlob([20]byte{byte(f), byte(f >> 8), byte(v), byte(v >> 8), 1}, BlobInfo{Size: int64(300 * chunks)}, rows)
		}
	}
	t, err := ParseTable(w.Encode())
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

// BenchmarkTableScans measures the reads a search makes of every visible
// row (first copies, names, hashes of the first copies, whole rows) and of
// the hits shown (a row's details, a blob's rows with details), per row
// for the scans.
func BenchmarkTableScans(b *testing.B) {
	t := historyTable(b, 100, 20, 50)
	b.Logf("%d rows, %d units, %d bytes", t.Nrows, t.Nunits, len(t.data))
	sink := 0
	scan := func(name string, visit func(i int)) {
		b.Run(name, func(b *testing.B) {
			for range b.N {
				for i := range t.Nrows {
					visit(i)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*t.Nrows), "ns/row")
		})
	}
	scan("copies", func(i int) { sink += t.firstCopy(i) })
	scan("hashes", func(i int) {
		if t.firstCopy(i) == i {
			h, _ := t.rowHash(i)
			sink += int(h[0])
		}
	})
	scan("names", func(i int) { sink += len(t.nameBytes(i)) })
	scan("rows", func(i int) { sink += t.Row(i).EndLine })
	b.Run("detail", func(b *testing.B) {
		for k := range b.N {
			sink += len(t.RowDetail((k * 7919) % t.Nrows).Signature)
		}
	})
	b.Run("blob-details", func(b *testing.B) {
		for k := range b.N {
			first, n := t.BlobRange((k * 7919) % t.Nblobs)
			rows, err := t.Details(first, n)
			if err != nil {
				b.Fatal(err)
			}
			sink += len(rows)
		}
	})
	_ = sink
}
