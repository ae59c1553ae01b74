package mcp

import (
	"context"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

type fileChunksIn struct {
	Path   string `json:"path" jsonschema:"file path relative to the repository root"`
	Rev    string `json:"rev,omitempty" jsonschema:"revision: branch, tag, SHA, HEAD~3...; default HEAD"`
	Offset int    `json:"offset,omitempty" jsonschema:"chunks to skip, to page through a long outline"`
	Limit  int    `json:"limit,omitempty" jsonschema:"chunks to return; default 300, ceiling 3000"`
}

type outlineChunk struct {
	ChunkID   string `json:"chunk_id"`
	Kind      string `json:"kind"`
	Name      string `json:"name,omitempty"`
	Depth     int    `json:"depth" jsonschema:"0 for the file chunk, 1 for top-level definitions, ..."`
	Parent    int    `json:"parent" jsonschema:"index of the parent chunk in the whole outline; -1 for the file chunk"`
	StartLine int    `json:"start_line"`
	EndLine   int    `json:"end_line"`
	Signature string `json:"signature,omitempty"`
}

type fileChunksOut struct {
	Path      string         `json:"path"`
	Rev       string         `json:"rev"`
	Commit    string         `json:"commit"`
	Blob      string         `json:"blob"`
	Language  string         `json:"language"`
	Indexed   bool           `json:"indexed" jsonschema:"false: the file is not in the index (not indexed yet, or skipped) and was chunked on the fly"`
	Total     int            `json:"total"`
	Chunks    []outlineChunk `json:"chunks"`
	Truncated bool           `json:"truncated"`
	Note      string         `json:"note,omitempty"`
}

func (s *Server) fileChunks(ctx context.Context, req *sdk.CallToolRequest, in fileChunksIn) (*sdk.CallToolResult, fileChunksOut, error) {
	out := fileChunksOut{Chunks: []outlineChunk{}}
	limit, err := intArg("limit", in.Limit, outlineChunks, outlineChunksMax)
	if err != nil {
		return nil, out, err
	}
	offset, err := offsetArg(in.Offset)
	if err != nil {
		return nil, out, err
	}
	t, e, content, err := s.fileAt(in.Rev, in.Path)
	if err != nil {
		return nil, out, err
	}
	snap, done := s.indexed(ctx, req, t.Commit)
	if done != nil {
		defer done()
	}
	bc := s.chunksOf(snap, e.Blob, e.Path, content)
	out.Path, out.Rev, out.Commit, out.Blob = e.Path, t.Commit.Rev, t.Commit.Hash.String(), e.Blob.String()
	out.Language, out.Indexed, out.Total = bc.language, bc.indexed, len(bc.chunks)
	var b strings.Builder
	fmt.Fprintf(&b, "%s at %s (%s, %d chunks)\n", e.Path, t.Commit.Rev, bc.language, len(bc.chunks))
	for i := min(offset, len(bc.chunks)); i < len(bc.chunks) && len(out.Chunks) < limit; i++ {
		c := bc.chunks[i]
		oc := outlineChunk{ChunkID: bc.id(i), Kind: c.Kind, Name: c.Name, Depth: bc.depth(i), Parent: c.Parent,
			StartLine: c.StartLine, EndLine: c.EndLine, Signature: c.Signature}
		out.Chunks = append(out.Chunks, oc)
		fmt.Fprintf(&b, "%s%d-%d %s", strings.Repeat("  ", oc.Depth), c.StartLine, c.EndLine, kindName(c.Kind, c.Name))
		if c.Signature != "" && c.Signature != c.Name {
			fmt.Fprintf(&b, "  %s", c.Signature)
		}
		fmt.Fprintf(&b, "  [%s]\n", oc.ChunkID)
	}
	if next := offset + len(out.Chunks); next < len(bc.chunks) {
		out.Truncated = true
		out.Note = fmt.Sprintf("truncated: showed chunks %d-%d of %d; continue with offset=%d", offset+1, next, len(bc.chunks), next)
		b.WriteString("[" + out.Note + "]\n")
	}
	return text(b.String()), out, nil
}

// kindName joins a kind and a name with a space, either may be empty.
func kindName(kind, name string) string { return strings.TrimSpace(kind + " " + name) }
