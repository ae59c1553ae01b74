package segment

import "github.com/bcindex/bcindex/chunk/vocab"

// BlobSpans are one blob's rows (Details or store.Snapshot.BlobRows) as
// vocab.IndexText reads them, so that a reader computes the text a chunk
// was indexed by without chunking the blob again. Rows[0] is row First of
// its segment; the rows need their signatures.
type BlobSpans struct {
	First int
	Rows  []Row
}

// Len is the number of the blob's chunks.
func (b BlobSpans) Len() int { return len(b.Rows) }

// Span is the blob's chunk i, its parent counted from the blob's first row.
func (b BlobSpans) Span(i int) vocab.Span {
	r := &b.Rows[i]
	parent := -1
	if r.Parent >= 0 {
		parent = r.Parent - b.First
	}
	return vocab.Span{Kind: r.Kind, Parent: parent, Signature: r.Signature,
		StartByte: r.StartByte, EndByte: r.EndByte, SyntaxError: r.SyntaxError}
}
