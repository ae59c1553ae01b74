package search

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/chunk/vocab"
)

// hits turns fused rows into results, reading snippets from the git blobs.
func (v *view) hits(rows []fused, opts *Options) ([]Hit, error) {
	blobs := map[plumbing.Hash][]byte{}
	out := make([]Hit, 0, len(rows))
	for _, f := range rows {
		seg := v.snap.Segments[f.seg]
		row := seg.RowDetail(f.row)
		b, _ := v.blobAt(f.seg, f.row)
		paths, sha := b.paths, b.sha
		h := Hit{
			Path: paths[0], StartLine: row.StartLine, EndLine: row.EndLine, StartByte: row.StartByte, EndByte: row.EndByte,
			Name: row.Name, Kind: row.Kind, Language: row.Language, Signature: row.Signature,
			Score: roundScore(f.score), Ref: v.rev, Commit: v.commit.Hash.String(), Blob: sha.String(),
			ChunkID: fmt.Sprintf("%s:%d-%d", sha, row.StartByte, row.EndByte),
			AlsoIn:  paths[1:len(paths):len(paths)], // appending copies: the view's paths are shared
		}
		if w, ok := v.winLines[[2]int{f.seg, f.row}]; ok {
			h.StartLine, h.EndLine = w[0], w[1]
		}
		for _, c := range f.copies {
			cp := v.snap.Segments[c[0]].Row(c[1])
			h.AlsoIn = append(h.AlsoIn, fmt.Sprintf("%s:%d-%d", v.pathOf(c[0], c[1]), cp.StartLine, cp.EndLine))
		}
		if !utf8.ValidString(h.Path) {
			h.PathBytes = []byte(h.Path)
		}
		h.Meta = row.Meta()
		h.HasSyntaxErrors = row.SyntaxError
		if row.Indexed {
			h.ContentHash = fmt.Sprintf("%x", row.Hash)
		}
		h.GeneratedSummary = v.summaryOf(row.Hash, row.Indexed)
		h.Breadcrumb = append(h.Breadcrumb, h.Path)
		var chain []string
		for p := row.Parent; p >= 0; {
			pr := seg.RowDetail(p)
			if pr.Kind != vocab.KindFile && pr.Name != "" {
				chain = append(chain, pr.Name)
				if h.Parent == "" {
					h.Parent = pr.Name
					h.ParentSignature = pr.Signature
					h.ParentChunkID = fmt.Sprintf("%s:%d-%d", sha, pr.StartByte, pr.EndByte)
				}
			}
			p = pr.Parent
		}
		if h.Parent == "" && row.Kind == vocab.KindMethod {
			// A Go method sits at file level; its receiver is its parent.
			if recv, ok := strings.CutSuffix(h.QualifiedName, "."+row.Name); ok && recv != "" {
				h.Parent = recv
				chain = append(chain, recv)
			}
		}
		for i := len(chain) - 1; i >= 0; i-- {
			h.Breadcrumb = append(h.Breadcrumb, chain[i])
		}
		if row.Kind != vocab.KindFile && row.Name != "" {
			h.Breadcrumb = append(h.Breadcrumb, row.Name)
		}
		content, ok := blobs[sha]
		if !ok {
			var err error
			if content, err = v.blobText(sha); err != nil {
				return nil, err
			}
			blobs[sha] = content
		}
		h.Snippet, h.SnippetStart = snippet(content, row.StartLine, row.EndLine, opts.Context, opts.MaxLines)
		out = append(out, h)
	}
	return out, nil
}

func roundScore(s float64) float64 { return float64(int64(s*1e6+0.5)) / 1e6 }

// snippet returns lines [start-ctx, end+ctx] of content (1-based) and the
// first one's number. maxLines (0: no cap) caps the lines returned, the
// context's included: the chunk's own lines come first, then the lines
// before it, then those after it, as far as the cap leaves room.
func snippet(content []byte, start, end, ctx, maxLines int) (string, int) {
	from, to := max(1, start-ctx), end+ctx
	if maxLines > 0 {
		own := min(end-start+1, maxLines)
		end = start + own - 1
		spare := maxLines - own
		before := min(ctx, spare, start-1)
		from, to = start-before, end+min(ctx, spare-before)
	}
	var b strings.Builder
	line := 1
	for len(content) > 0 && line <= to {
		i := bytes.IndexByte(content, '\n')
		var l []byte
		if i < 0 {
			l, content = content, nil
		} else {
			l, content = content[:i], content[i+1:]
		}
		if line >= from {
			b.Write(bytes.TrimRight(l, "\r"))
			b.WriteByte('\n')
		}
		line++
	}
	return b.String(), from
}

// blobText returns a blob's bytes: from the segment that keeps them (an
// LZ4 block, decoded many times faster than git's zlib and deltas), else
// from git.
func (v *view) blobText(sha plumbing.Hash) ([]byte, error) {
	if b, ok, err := v.snap.Text(sha, nil); ok && err == nil {
		return b, nil
	}
	return v.repo.ReadBlob(sha)
}
