package indexer

import (
	"github.com/bcindex/bcindex/chunk"
	"github.com/bcindex/bcindex/segment"
)

// storedFile rebuilds a blob's chunks from its segment rows
// (store.Snapshot.BlobRows, rows[0] being row first of its segment), as
// chunk.Split made them except that docs are clipped to what rows keep:
// the base chunk.Edit splices an edited file into.
func storedFile(first int, rows []segment.Row, info segment.BlobInfo) chunk.File {
	out := make([]chunk.Chunk, len(rows))
	for k, r := range rows {
		m := r.Meta()
		parent := -1
		if r.Parent >= 0 {
			parent = r.Parent - first
		}
		out[k] = chunk.Chunk{Kind: r.Kind, Name: r.Name, Parent: parent, Signature: r.Signature, Doc: m.Doc,
			StartLine: r.StartLine, EndLine: r.EndLine, StartByte: r.StartByte, EndByte: r.EndByte, SyntaxError: r.SyntaxError,
			QualifiedName: m.QualifiedName, Access: m.Access, Decorators: m.Decorators, Imports: m.Imports, ErrorDetail: m.ErrorDetail}
	}
	f := chunk.File{Chunks: out, Fallback: info.Fallback, SyntaxErrors: info.SyntaxErrors}
	if len(rows) > 0 {
		f.Language = rows[0].Language
	}
	return f
}
