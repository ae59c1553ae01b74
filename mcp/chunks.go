package mcp

import (
	"bytes"
	"fmt"
	"strconv"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/chunk/vocab"
	"github.com/bcindex/bcindex/internal/lazyre"
	"github.com/bcindex/bcindex/store"
)

// Chunk is one chunk of a blob as the chunk tools show it: from the
// index's rows, or from Options.Split for a blob the index lacks.
type Chunk struct {
	Kind, Name, Signature string
	Parent                int // index in blobChunks.chunks; -1 for the file chunk
	StartLine, EndLine    int
	StartByte, EndByte    int
}

// blobChunks are the chunks of one blob, in order, parents before children.
type blobChunks struct {
	blob     plumbing.Hash
	language string
	chunks   []Chunk
	indexed  bool // read from the index, rather than chunked on the fly
}

// id is the chunk ID of chunk i, the same as search reports.
func (b *blobChunks) id(i int) string {
	c := b.chunks[i]
	return fmt.Sprintf("%s:%d-%d", b.blob, c.StartByte, c.EndByte)
}

// depth is how many ancestors chunk i has.
func (b *blobChunks) depth(i int) int {
	d := 0
	for p := b.chunks[i].Parent; p >= 0 && d < len(b.chunks); p = b.chunks[p].Parent {
		d++
	}
	return d
}

// find returns the chunk spanning exactly [start, end).
func (b *blobChunks) find(start, end int) (int, bool) {
	for i, c := range b.chunks {
		if c.StartByte == start && c.EndByte == end {
			return i, true
		}
	}
	return 0, false
}

// chunksOf returns the chunks of a blob: the index's rows when snap (the
// index as it is, or nil) holds the blob (so IDs match search results
// exactly), else Options.Split of content, which is what the indexer would
// store; without Split, the file chunk alone. path decides the language.
func (s *Server) chunksOf(snap *store.Snapshot, blob plumbing.Hash, path string, content []byte) *blobChunks {
	if b := indexedChunks(snap, blob); b != nil {
		return b
	}
	if s.opts.Split != nil {
		language, chunks := s.opts.Split(path, content)
		return &blobChunks{blob: blob, language: language, chunks: chunks}
	}
	lines := bytes.Count(content, []byte("\n"))
	if len(content) > 0 && content[len(content)-1] != '\n' {
		lines++
	}
	file := Chunk{Kind: vocab.KindFile, Parent: -1, StartLine: 1, EndLine: max(lines, 1), EndByte: len(content)}
	return &blobChunks{blob: blob, language: vocab.DetectLanguage(path, content), chunks: []Chunk{file}}
}

// indexedChunks reads a blob's rows from snap; nil when there is no index
// (snap nil) or it does not hold them (not indexed yet, or skipped as
// generated, too large...).
func indexedChunks(snap *store.Snapshot, blob plumbing.Hash) *blobChunks {
	if snap == nil {
		return nil // no index, or unreadable: chunk on the fly instead
	}
	loc, ok := snap.FindBlob(blob)
	if !ok || loc.N == 0 {
		return nil
	}
	seg := snap.Segments[loc.Seg]
	b := &blobChunks{blob: blob, indexed: true, chunks: make([]Chunk, loc.N)}
	for i := range loc.N {
		r := seg.RowDetail(loc.First + i)
		parent := -1
		if r.Parent >= loc.First && r.Parent < loc.First+loc.N {
			parent = r.Parent - loc.First
		}
		b.chunks[i] = Chunk{Kind: r.Kind, Name: r.Name, Signature: r.Signature, Parent: parent,
			StartLine: r.StartLine, EndLine: r.EndLine, StartByte: r.StartByte, EndByte: r.EndByte}
		if i == 0 {
			b.language = r.Language
		}
	}
	return b
}

var chunkIDPattern = lazyre.New(`^([0-9a-f]{40}):([0-9]{1,10})-([0-9]{1,10})$`)

// parseChunkID splits "<blob sha>:<start byte>-<end byte>".
func parseChunkID(id string) (plumbing.Hash, int, int, error) {
	m := chunkIDPattern().FindStringSubmatch(id)
	if m == nil {
		return plumbing.ZeroHash, 0, 0, fmt.Errorf("chunk_id %q is malformed: want <40-hex blob SHA>:<start byte>-<end byte>, as returned by search or file_chunks", clip(id, 120))
	}
	start, err1 := strconv.Atoi(m[2])
	end, err2 := strconv.Atoi(m[3])
	if err1 != nil || err2 != nil || end < start {
		return plumbing.ZeroHash, 0, 0, fmt.Errorf("chunk_id %q: bad byte range", id)
	}
	return plumbing.NewHash(m[1]), start, end, nil
}

// breadcrumb is path › ancestors › the chunk's own name, like search's.
func (b *blobChunks) breadcrumb(path string, i int) []string {
	var chain []string
	for p := i; p >= 0 && len(chain) <= len(b.chunks); p = b.chunks[p].Parent {
		if c := b.chunks[p]; c.Kind != vocab.KindFile && c.Name != "" {
			chain = append(chain, c.Name)
		}
	}
	out := []string{path}
	for j := len(chain) - 1; j >= 0; j-- {
		out = append(out, chain[j])
	}
	return out
}
