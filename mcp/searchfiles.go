package mcp

import (
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bcindex/bcindex/search"
)

// fileOut is one file of a file ranking (search with files: true).
type fileOut struct {
	Path  string   `json:"path"`
	Score float64  `json:"score"`
	Lines [][2]int `json:"lines" jsonschema:"the line spans of its best chunks, best first"`
	Hits  []hitOut `json:"hits" jsonschema:"its best chunks; the first with its snippet"`
}

// fileAnswer fills out with a file ranking, within the byte budget: each
// file's best chunk with its snippet, the others by their lines and names.
func (s *Server) fileAnswer(out searchOut, files []search.FileHit, maxBytes int) (*sdk.CallToolResult, searchOut, error) {
	used := 0
	for i, f := range files {
		fo := fileOut{Path: f.Path, Score: f.Score, Lines: f.Lines}
		for j, h := range f.Hits {
			ho := hitOut{Path: h.Path, StartLine: h.StartLine, EndLine: h.EndLine, Name: h.Name, Kind: h.Kind, Language: h.Language,
				Signature: h.Signature, Breadcrumb: h.Breadcrumb, Score: h.Score, Rev: h.Ref, Commit: h.Commit, Blob: h.Blob,
				ChunkID: h.ChunkID, AlsoIn: h.AlsoIn, Refs: h.Refs, Generated: h.GeneratedSummary}
			if j == 0 {
				ho.Snippet, _ = numbered(splitLines([]byte(h.Snippet)), h.SnippetStart, maxBytes)
			}
			fo.Hits = append(fo.Hits, ho)
		}
		size := jsonSize(fo)
		if used+size > maxBytes && i > 0 {
			out.Truncated = true
			out.Note = fmt.Sprintf("truncated: %d more files did not fit the %d-byte budget; lower max_lines or context, or raise max_bytes (ceiling %d)",
				len(files)-i, maxBytes, searchBytesMax)
			break
		}
		used += size
		out.Files = append(out.Files, fo)
	}
	if out.Pending > 0 {
		out.Note = joinNote(out.Note, fmt.Sprintf("%d blobs of %s are not indexed yet; results may miss them", out.Pending, out.Rev))
	}
	if len(out.Files) == 0 {
		out.Note = joinNote(out.Note, "no hits; try other words, mode=text for exact identifiers, or fewer filters")
	}
	return text(renderFiles(out)), out, nil
}

func renderFiles(o searchOut) string {
	var b strings.Builder
	for i, f := range o.Files {
		fmt.Fprintf(&b, "%d. %s  (score %.4f)\n", i+1, f.Path, f.Score)
		for _, h := range f.Hits {
			fmt.Fprintf(&b, "   %d-%d  %s  (%s, score %.4f) chunk_id %s\n", h.StartLine, h.EndLine,
				strings.Join(h.Breadcrumb[min(1, len(h.Breadcrumb)):], " › "), h.Kind, h.Score, h.ChunkID)
		}
		if len(f.Hits) > 0 {
			b.WriteString(f.Hits[0].Snippet)
			b.WriteString("\n")
		}
	}
	fmt.Fprintf(&b, "[%d files at %s (commit %.12s)]\n", len(o.Files), o.Rev, o.Commit)
	if o.Note != "" {
		b.WriteString("[" + o.Note + "]\n")
	}
	return b.String()
}
