package mcp

import (
	"context"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bcindex/bcindex/chunk/vocab"
	"github.com/bcindex/bcindex/indexing"
)

type readFileIn struct {
	Path      string `json:"path" jsonschema:"file path relative to the repository root, e.g. src/main.go"`
	Rev       string `json:"rev,omitempty" jsonschema:"revision: branch, tag, SHA, HEAD~3...; default HEAD"`
	StartLine int    `json:"start_line,omitempty" jsonschema:"first line to return, 1-based; default 1"`
	EndLine   int    `json:"end_line,omitempty" jsonschema:"last line to return, inclusive; default start_line+499; at most 5000 lines per call"`
	MaxBytes  int    `json:"max_bytes,omitempty" jsonschema:"byte budget of the answer; default 48000, ceiling 256000"`
}

type readFileOut struct {
	Path       string `json:"path"`
	Rev        string `json:"rev"`
	Commit     string `json:"commit"`
	Blob       string `json:"blob"`
	Language   string `json:"language"`
	Size       int64  `json:"size"`
	TotalLines int    `json:"total_lines"`
	StartLine  int    `json:"start_line"`
	EndLine    int    `json:"end_line"`
	Truncated  bool   `json:"truncated"`
	Note       string `json:"note,omitempty"`
	Text       string `json:"text" jsonschema:"the lines, each prefixed with its number and a tab"`
}

func (s *Server) readFile(_ context.Context, _ *sdk.CallToolRequest, in readFileIn) (*sdk.CallToolResult, readFileOut, error) {
	var out readFileOut
	maxBytes, err := intArg("max_bytes", in.MaxBytes, readBytes, readBytesMax)
	if err != nil {
		return nil, out, err
	}
	if in.StartLine < 0 || in.EndLine < 0 {
		return nil, out, fmt.Errorf("start_line and end_line must be positive line numbers (got %d, %d)", in.StartLine, in.EndLine)
	}
	if in.EndLine > 0 && in.StartLine > in.EndLine {
		return nil, out, fmt.Errorf("end_line %d is before start_line %d", in.EndLine, in.StartLine)
	}
	t, e, content, err := s.fileAt(in.Rev, in.Path)
	if err != nil {
		return nil, out, err
	}
	lines := splitLines(content)
	out = readFileOut{Path: e.Path, Rev: t.Commit.Rev, Commit: t.Commit.Hash.String(), Blob: e.Blob.String(),
		Language: vocab.DetectLanguage(e.Path, content), Size: int64(len(content)), TotalLines: len(lines)}
	if len(lines) == 0 {
		out.Note = "empty file"
		return text(out.Note), out, nil
	}
	start := max(in.StartLine, 1)
	if start > len(lines) {
		return nil, out, fmt.Errorf("start_line %d is past the end of %s: it has %d lines", start, e.Path, len(lines))
	}
	end := in.EndLine
	if end == 0 {
		end = start + readLines - 1
	}
	end = min(end, start+readLinesMax-1, len(lines))
	var n int
	out.Text, n = numbered(lines[start-1:end], start, maxBytes)
	out.StartLine, out.EndLine = start, start+n-1
	wanted := len(lines) // no end_line: the rest of the file
	if in.EndLine > 0 {
		wanted = min(in.EndLine, len(lines))
	}
	if out.EndLine < wanted {
		out.Truncated = true
		out.Note = fmt.Sprintf("truncated: showed lines %d-%d of %d; continue with start_line=%d", start, out.EndLine, len(lines), out.EndLine+1)
		if out.EndLine < end {
			out.Note += fmt.Sprintf(" (the %d-byte budget ran out; max_bytes raises it up to %d)", maxBytes, readBytesMax)
		}
	}
	msg := out.Text
	if out.Note != "" {
		msg += "[" + out.Note + "]\n"
	}
	return text(msg), out, nil
}

type indexStatusIn struct {
	Rev string `json:"rev,omitempty" jsonschema:"revision: branch, tag, SHA, HEAD~3...; default HEAD"`
}

type indexStatusOut struct {
	State  string           `json:"state"`
	Status *indexing.Status `json:"status"`
}

func (s *Server) indexStatus(_ context.Context, _ *sdk.CallToolRequest, in indexStatusIn) (*sdk.CallToolResult, indexStatusOut, error) {
	var out indexStatusOut
	model := s.model()
	if model == "" {
		model = "(vectors off: bcindex.vectors=false)"
	}
	st, err := indexing.StatusOf(s.repo, in.Rev, model)
	if err != nil {
		return nil, out, err
	}
	out.Status = st
	out.State = "up to date"
	switch {
	case st.Segments == 0 && st.Pending > 0:
		out.State = "not indexed yet (search indexes it on first use)"
	case st.Pending > 0:
		out.State = fmt.Sprintf("%d blobs pending (search indexes them on first use)", st.Pending)
	}
	if st.Indexing {
		out.State += "; an indexer is running"
	}
	return nil, out, nil
}
