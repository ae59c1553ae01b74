package chunk

import "github.com/bcindex/bcindex/segment"

// Stored rebuilds a blob's chunks from its segment rows (Segment.Details,
// rows[0] being row first of its segment), as Split made them except that
// docs are clipped to what rows keep.
func Stored(first int, rows []segment.Row, info segment.BlobInfo) File {
	out := make([]Chunk, len(rows))
	for k, r := range rows {
		m := r.Meta()
		parent := -1
		if r.Parent >= 0 {
			parent = r.Parent - first
		}
		out[k] = Chunk{Kind: r.Kind, Name: r.Name, Parent: parent, Signature: r.Signature, Doc: m.Doc,
			StartLine: r.StartLine, EndLine: r.EndLine, StartByte: r.StartByte, EndByte: r.EndByte, SyntaxError: r.SyntaxError,
			QualifiedName: m.QualifiedName, Access: m.Access, Decorators: m.Decorators, Imports: m.Imports, ErrorDetail: m.ErrorDetail}
	}
	f := File{Chunks: out, Fallback: info.Fallback, SyntaxErrors: info.SyntaxErrors}
	if len(rows) > 0 {
		f.Language = rows[0].Language
	}
	return f
}
