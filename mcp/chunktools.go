package mcp

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bcindex/bcindex/chunk/vocab"
	"github.com/bcindex/bcindex/internal/safepath"
)

type getChunkIn struct {
	ChunkID    string `json:"chunk_id" jsonschema:"chunk ID from search or file_chunks: <blob sha>:<start byte>-<end byte>"`
	Rev        string `json:"rev,omitempty" jsonschema:"revision used to name the file holding the chunk; default HEAD"`
	MaxBytes   int    `json:"max_bytes,omitempty" jsonschema:"byte budget of the chunk text; default 32000, ceiling 256000"`
	ParentText bool   `json:"parent_text,omitempty" jsonschema:"include the parent chunk's text even when the chunk is not a micro chunk (block)"`
}

// related names a neighbouring chunk.
type related struct {
	Name      string `json:"name"`
	Kind      string `json:"kind"`
	StartLine int    `json:"start_line"`
	ChunkID   string `json:"chunk_id"`
}

type parentOut struct {
	ChunkID       string `json:"chunk_id"`
	Kind          string `json:"kind"`
	Name          string `json:"name,omitempty"`
	Signature     string `json:"signature,omitempty"`
	StartLine     int    `json:"start_line"`
	EndLine       int    `json:"end_line"`
	Text          string `json:"text,omitempty" jsonschema:"numbered lines; given for micro chunks or with parent_text"`
	TextTruncated bool   `json:"text_truncated,omitempty"`
}

type getChunkOut struct {
	ChunkID    string     `json:"chunk_id"`
	Blob       string     `json:"blob"`
	Rev        string     `json:"rev"`
	Commit     string     `json:"commit"`
	Paths      []string   `json:"paths" jsonschema:"files holding this blob at rev (empty: not at rev)"`
	Language   string     `json:"language"`
	Kind       string     `json:"kind"`
	Name       string     `json:"name,omitempty"`
	Signature  string     `json:"signature,omitempty"`
	Breadcrumb []string   `json:"breadcrumb"`
	StartLine  int        `json:"start_line"`
	EndLine    int        `json:"end_line"`
	Text       string     `json:"text" jsonschema:"the chunk's lines, each prefixed with its number and a tab"`
	Truncated  bool       `json:"truncated"`
	Note       string     `json:"note,omitempty"`
	Parent     *parentOut `json:"parent,omitempty"`
	Siblings   []related  `json:"siblings" jsonschema:"other chunks with the same parent"`
	Children   []related  `json:"children"`
}

func (s *Server) getChunk(ctx context.Context, req *sdk.CallToolRequest, in getChunkIn) (*sdk.CallToolResult, getChunkOut, error) {
	var out getChunkOut
	maxBytes, err := intArg("max_bytes", in.MaxBytes, chunkBytes, chunkBytesMax)
	if err != nil {
		return nil, out, err
	}
	blob, start, end, err := parseChunkID(strings.TrimSpace(in.ChunkID))
	if err != nil {
		return nil, out, err
	}
	t, err := s.openTree(in.Rev)
	if err != nil {
		return nil, out, err
	}
	paths := t.PathsOf(blob.String(), 10)
	size, err := s.repo.BlobSize(blob)
	if err != nil {
		return nil, out, fmt.Errorf("chunk_id %s: no blob %s in this repository", in.ChunkID, blob)
	}
	if size > safepath.MaxBlobBytes || int64(end) > size {
		return nil, out, fmt.Errorf("chunk_id %s: byte range outside blob %s (%d bytes)", in.ChunkID, blob, size)
	}
	content, err := s.repo.ReadBlob(blob)
	if err != nil {
		return nil, out, err
	}
	path := ""
	if len(paths) > 0 {
		path = paths[0]
	}
	snap, done := s.indexed(ctx, req, t.Commit)
	if done != nil {
		defer done()
	}
	bc := indexedChunks(snap, blob)
	if bc == nil {
		if path == "" {
			return nil, out, fmt.Errorf("chunk_id %s: blob %s is neither indexed nor a file at %s; pass the rev the chunk_id came from", in.ChunkID, blob, t.Commit.Rev)
		}
		bc = s.chunksOf(snap, blob, path, content)
	}
	i, ok := bc.find(start, end)
	if !ok {
		return nil, out, fmt.Errorf("chunk_id %s: blob %s has no chunk spanning bytes %d-%d; use file_chunks to list its chunks", in.ChunkID, blob, start, end)
	}
	c := bc.chunks[i]
	out = getChunkOut{ChunkID: bc.id(i), Blob: blob.String(), Rev: t.Commit.Rev, Commit: t.Commit.Hash.String(),
		Paths: append([]string{}, paths...), Language: bc.language, Kind: c.Kind, Name: c.Name, Signature: c.Signature,
		StartLine: c.StartLine, EndLine: c.EndLine, Siblings: []related{}, Children: []related{}}
	if path == "" {
		path = "(blob " + blob.String()[:12] + ")"
		out.Note = fmt.Sprintf("this blob is not a file at %s; pass the rev the chunk_id came from to name its path", t.Commit.Rev)
	}
	out.Breadcrumb = bc.breadcrumb(path, i)
	lines := splitLines(wholeLines(content, c.StartByte, c.EndByte))
	var n int
	out.Text, n = numbered(lines, c.StartLine, maxBytes)
	if n < len(lines) {
		out.Truncated = true
		out.Note = joinNote(out.Note, fmt.Sprintf("truncated after line %d of %d-%d; read the rest with read_file path=%q start_line=%d end_line=%d, or raise max_bytes (ceiling %d)",
			c.StartLine+n-1, c.StartLine, c.EndLine, path, c.StartLine+n, c.EndLine, chunkBytesMax))
	}
	if c.Parent >= 0 {
		p := bc.chunks[c.Parent]
		out.Parent = &parentOut{ChunkID: bc.id(c.Parent), Kind: p.Kind, Name: p.Name, Signature: p.Signature, StartLine: p.StartLine, EndLine: p.EndLine}
		if c.Kind == vocab.KindBlock || in.ParentText {
			pl := splitLines(wholeLines(content, p.StartByte, p.EndByte))
			var pn int
			out.Parent.Text, pn = numbered(pl, p.StartLine, parentBytes)
			out.Parent.TextTruncated = pn < len(pl)
		}
	}
	for j, o := range bc.chunks {
		r := related{Name: o.Name, Kind: o.Kind, StartLine: o.StartLine, ChunkID: bc.id(j)}
		switch {
		case j != i && o.Parent == c.Parent && c.Parent >= 0 && len(out.Siblings) < relatedNames:
			out.Siblings = append(out.Siblings, r)
		case o.Parent == i && len(out.Children) < relatedNames:
			out.Children = append(out.Children, r)
		}
	}
	return text(renderChunk(out)), out, nil
}

func renderChunk(o getChunkOut) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s  (%s, lines %d-%d, %s at %s)\n", strings.Join(o.Breadcrumb, " › "), o.Kind, o.StartLine, o.EndLine, o.Language, o.Rev)
	if p := o.Parent; p != nil {
		fmt.Fprintf(&b, "parent: %s %s, lines %d-%d  %s\n", p.Kind, p.Name, p.StartLine, p.EndLine, p.Signature)
	}
	b.WriteString(o.Text)
	if o.Note != "" {
		b.WriteString("[" + o.Note + "]\n")
	}
	if p := o.Parent; p != nil && p.Text != "" {
		b.WriteString("\nparent text:\n" + p.Text)
		if p.TextTruncated {
			b.WriteString("[parent text truncated]\n")
		}
	}
	names := func(label string, rs []related) {
		if len(rs) == 0 {
			return
		}
		var parts []string
		for _, r := range rs {
			parts = append(parts, kindName(r.Kind, r.Name))
		}
		fmt.Fprintf(&b, "%s: %s\n", label, strings.Join(parts, ", "))
	}
	names("siblings", o.Siblings)
	names("children", o.Children)
	return b.String()
}

// wholeLines widens content[start:end] to whole lines, so that the first
// line keeps its indentation.
func wholeLines(content []byte, start, end int) []byte {
	start = bytes.LastIndexByte(content[:start], '\n') + 1
	if i := bytes.IndexByte(content[end:], '\n'); i >= 0 && end > start && content[end-1] != '\n' {
		end += i
	}
	return content[start:end]
}

// joinNote joins two optional phrases.
func joinNote(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}
