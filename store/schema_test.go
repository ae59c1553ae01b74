package store_test

import (
	"fmt"
	"testing"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/segment"
	"github.com/bcindex/bcindex/store"
)

func testChunks(n int) []store.ChunkRecord {
	cs := []store.ChunkRecord{{Kind: "file", Name: "a.go", Parent: -1, StartLine: 1, EndLine: 10 * n, StartByte: 0, EndByte: 100 * n}}
	for i := 1; i < n; i++ {
		cs = append(cs, store.ChunkRecord{Kind: "function", Name: fmt.Sprint("F", i), Signature: "func F()", Parent: 0,
			StartLine: 10 * i, EndLine: 10*i + 4, StartByte: 100 * i, EndByte: 100*i + 40, SyntaxError: i%2 == 0,
			Hash: store.ContentHash(fmt.Sprint("text", i)),
			Meta: store.Meta{Doc: "F does.", QualifiedName: "T.F", Access: "public", Imports: []string{"fmt"}}})
	}
	return cs
}

// TestBlobRecordHeaderOnly: a record keeps the blob's header and none of
// its chunks, whose places and hashes segment rows hold, so that its size
// does not grow with them.
func TestBlobRecordHeaderOnly(t *testing.T) {
	head := store.BlobRecord{ChunkerVersion: 7, Skip: gitindex.SkipNone, Size: 1234, Language: "go", Fallback: true, SyntaxErrors: 2}
	bare := head.Encode()
	for _, n := range []int{1, 5, 200} {
		rec := head
		rec.Chunks = testChunks(n)
		enc := rec.Encode()
		if len(enc) != len(bare) {
			t.Errorf("%d chunks: record of %d bytes, want %d as without chunks", n, len(enc), len(bare))
		}
		got, err := store.DecodeBlobRecord(enc)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprintf("%+v", *got) != fmt.Sprintf("%+v", head) {
			t.Fatalf("round trip:\n got %+v\nwant %+v", *got, head)
		}
	}
	skipped := store.BlobRecord{ChunkerVersion: 7, Skip: gitindex.SkipBinary, Size: 1 << 40}
	if got, err := store.DecodeBlobRecord(skipped.Encode()); err != nil || fmt.Sprintf("%+v", *got) != fmt.Sprintf("%+v", skipped) {
		t.Fatalf("skipped blob: got %+v, %v; want %+v", got, err, skipped)
	}
	for i := 0; i < len(bare); i++ {
		if _, err := store.DecodeBlobRecord(bare[:i]); err == nil {
			t.Fatalf("truncated record of %d bytes decoded without error", i)
		}
	}
	if _, err := store.DecodeBlobRecord(append(bare, 0)); err == nil {
		t.Fatal("record with a trailing byte decoded without error")
	}
}

// TestBlobRecordVersion3: a record written before chunks were left out
// (version 3: the header, then every chunk's place and hash) reads as its
// header; other versions are a schema mismatch.
func TestBlobRecordVersion3(t *testing.T) {
	head := store.BlobRecord{ChunkerVersion: 7, Skip: gitindex.SkipNone, Size: 99, Language: "python", SyntaxErrors: 1}
	e := segment.Encoder{}
	e.Uint(3)
	e.Uint(uint64(head.ChunkerVersion))
	e.Str(head.Skip)
	e.Uint(uint64(head.Size))
	e.Str(head.Language)
	e.Bool(head.Fallback)
	e.Uint(uint64(head.SyntaxErrors))
	cs := testChunks(4)
	e.Uint(uint64(len(cs)))
	for i := range cs {
		cs[i].EncodePlace(&e, false)
	}
	got, err := store.DecodeBlobRecord(e.Buf)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprintf("%+v", *got) != fmt.Sprintf("%+v", head) {
		t.Fatalf("version 3 record:\n got %+v\nwant %+v", *got, head)
	}
	e.Buf[0] = 2
	if _, err := store.DecodeBlobRecord(e.Buf); err == nil {
		t.Fatal("version 2 record decoded without error")
	}
}
