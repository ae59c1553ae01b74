package mcp

import (
	"context"
	"fmt"
	"path"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bcindex/bcindex/chunk/vocab"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/safepath"
)

type listDirIn struct {
	Path      string `json:"path,omitempty" jsonschema:"directory relative to the repository root; default the root"`
	Rev       string `json:"rev,omitempty" jsonschema:"revision: branch, tag, SHA, HEAD~3...; default HEAD"`
	Recursive bool   `json:"recursive,omitempty" jsonschema:"descend into subdirectories (without depth: all the way)"`
	Depth     int    `json:"depth,omitempty" jsonschema:"levels to show below path: 1 lists direct children only; default 1, or unlimited with recursive"`
	Offset    int    `json:"offset,omitempty" jsonschema:"entries to skip, to page through a long listing"`
	Limit     int    `json:"limit,omitempty" jsonschema:"entries to return; default 300, ceiling 5000"`
}

type dirEntry struct {
	Path     string `json:"path"`
	Type     string `json:"type" jsonschema:"file, dir, symlink or submodule"`
	Size     int64  `json:"size,omitempty" jsonschema:"file size in bytes"`
	Language string `json:"language,omitempty"`
	Files    int    `json:"files,omitempty" jsonschema:"for a dir: files below it, at any depth"`
	Target   string `json:"target,omitempty" jsonschema:"for a symlink: where it points (never followed)"`
	Skip     string `json:"skip,omitempty" jsonschema:"why the index skips this file (vendored, generated, ...)"`
}

type listDirOut struct {
	Path      string     `json:"path"`
	Rev       string     `json:"rev"`
	Commit    string     `json:"commit"`
	Total     int        `json:"total" jsonschema:"entries in the whole listing, before offset and limit"`
	Entries   []dirEntry `json:"entries"`
	Truncated bool       `json:"truncated"`
	Note      string     `json:"note,omitempty"`
}

func (s *Server) listDirectory(_ context.Context, _ *sdk.CallToolRequest, in listDirIn) (*sdk.CallToolResult, listDirOut, error) {
	out := listDirOut{Entries: []dirEntry{}}
	limit, err := intArg("limit", in.Limit, listEntries, listEntriesMax)
	if err != nil {
		return nil, out, err
	}
	offset, err := offsetArg(in.Offset)
	if err != nil {
		return nil, out, err
	}
	if in.Depth < 0 {
		return nil, out, fmt.Errorf("depth must be positive (got %d)", in.Depth)
	}
	depth := in.Depth
	if depth == 0 && !in.Recursive {
		depth = 1
	}
	t, dir, err := s.dirAt(in.Rev, in.Path)
	if err != nil {
		return nil, out, err
	}
	out.Path, out.Rev, out.Commit = dir, t.Commit.Rev, t.Commit.Hash.String()
	all, blobs := walkDir(t.Under(dir), dir, depth)
	out.Total = len(all)
	if offset > len(all) {
		offset = len(all)
	}
	page := all[offset:min(offset+limit, len(all))]
	for i := range page {
		s.describe(&page[i], blobs[offset+i])
	}
	out.Entries = page
	if next := offset + len(page); next < len(all) {
		out.Truncated = true
		out.Note = fmt.Sprintf("truncated: showed entries %d-%d of %d; continue with offset=%d, or list a subdirectory", offset+1, next, len(all), next)
	}
	var b strings.Builder
	for _, e := range out.Entries {
		b.WriteString(formatEntry(e))
	}
	if out.Note != "" {
		b.WriteString("[" + out.Note + "]\n")
	}
	if out.Total == 0 {
		b.WriteString("(empty)\n")
	}
	return text(b.String()), out, nil
}

// walkDir turns the file entries below dir into listing rows down to depth
// levels (0: unlimited), in git's tree order, with each directory before
// its contents. blobs[i] is the entry behind row i (zero for directories).
func walkDir(entries []gitindex.Entry, dir string, depth int) ([]dirEntry, []gitindex.Entry) {
	prefix := ""
	if dir != "" {
		prefix = dir + "/"
	}
	var rows []dirEntry
	var src []gitindex.Entry
	dirs := map[string]int{} // dir path → row
	for _, e := range entries {
		comps := strings.Split(strings.TrimPrefix(e.Path, prefix), "/")
		for k := 1; k < len(comps) && (depth == 0 || k <= depth); k++ {
			d := prefix + strings.Join(comps[:k], "/")
			i, ok := dirs[d]
			if !ok {
				i = len(rows)
				dirs[d] = i
				rows = append(rows, dirEntry{Path: d, Type: "dir"})
				src = append(src, gitindex.Entry{})
			}
			rows[i].Files++
		}
		if depth != 0 && len(comps) > depth {
			continue
		}
		rows = append(rows, dirEntry{Path: e.Path, Type: "file", Skip: e.Skip})
		src = append(src, e)
	}
	return rows, src
}

// describe fills in what needs the object database: sizes, languages and
// symlink targets. It runs for the returned page only.
func (s *Server) describe(d *dirEntry, e gitindex.Entry) {
	if d.Type == "dir" {
		return
	}
	switch e.Skip {
	case gitindex.SkipSymlink:
		d.Type, d.Skip = "symlink", ""
		if b, err := s.repo.ReadBlob(e.Blob); err == nil {
			d.Target = clip(string(b), 200)
		}
		return
	case gitindex.SkipSubmodule:
		d.Type, d.Skip, d.Target = "submodule", "", e.Blob.String()
		return
	}
	if size, err := s.repo.BlobSize(e.Blob); err == nil {
		d.Size = size
	}
	d.Language = vocab.DetectLanguage(e.Path, nil)
	// For unknown names the content decides (shebang, or binary); peek at
	// small files only.
	if d.Language == "text" && path.Ext(e.Path) != ".txt" && d.Size > 0 && d.Size <= 1<<20 {
		if b, err := s.repo.ReadBlob(e.Blob); err == nil {
			if safepath.IsBinary(b) {
				d.Language = "binary"
			} else {
				d.Language = vocab.DetectLanguage(e.Path, b)
			}
		}
	}
}

func formatEntry(e dirEntry) string {
	switch e.Type {
	case "dir":
		if e.Files == 1 {
			return fmt.Sprintf("%s/\t(1 file)\n", e.Path)
		}
		return fmt.Sprintf("%s/\t(%d files)\n", e.Path, e.Files)
	case "symlink":
		return fmt.Sprintf("%s\t-> %s (symlink, not followed)\n", e.Path, e.Target)
	case "submodule":
		return fmt.Sprintf("%s\t(submodule at %s)\n", e.Path, e.Target)
	}
	s := fmt.Sprintf("%s\t%d bytes\t%s", e.Path, e.Size, e.Language)
	if e.Skip != "" {
		s += "\t(not indexed: " + e.Skip + ")"
	}
	return s + "\n"
}
