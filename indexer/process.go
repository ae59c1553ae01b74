package indexer

import (
	"bytes"
	"context"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/chunk"
	"github.com/bcindex/bcindex/chunk/vocab"
	"github.com/bcindex/bcindex/exact"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/lexical"
	"github.com/bcindex/bcindex/ngram"
	"github.com/bcindex/bcindex/segment"
	"github.com/bcindex/bcindex/store"
	"github.com/bcindex/bcindex/store/storewrite"
)

// usableShared reports whether a shared chunk list can stand for Split's:
// files with syntax errors or split into windows record facts (the error
// count, the fallback) that a share does not carry, so they are parsed.
func usableShared(chunks []chunk.Chunk) bool {
	if len(chunks) == 0 || chunks[0].Kind != vocab.KindFile {
		return false
	}
	for _, c := range chunks {
		if c.SyntaxError || c.Kind == vocab.KindWindow {
			return false
		}
	}
	return true
}

// prevVersion is the indexed version of a file before an edit.
type prevVersion struct {
	sha     plumbing.Hash
	content []byte
}

// process chunks one blob, tokenises and embeds its chunks. With the
// previous version of the file (prev, whose rows snap holds), only what the
// edit touched is parsed again when chunk.Edit can do so.
func (ix *Indexer) process(ctx context.Context, sf *storeFuture, snap *store.Snapshot, prev *prevVersion, sha plumbing.Hash, path string, content []byte, size int64) (*blobResult, error) {
	r := &blobResult{sha: sha, size: int(size), rec: &store.BlobRecord{ChunkerVersion: chunk.Version, Size: size}}
	skip := contentSkip(content, size, ix.opts.MaxFileSize)
	r.grams, r.pieces, r.binary, r.text = grams(content, size)
	if !ix.keepsText(sha) {
		r.text = segment.Stored{}
	}
	if skip != gitindex.SkipNone {
		r.rec.Skip = skip
		return r, nil
	}
	f, ok := chunk.File{}, false
	var known *segVectors // the previous version's vectors, by content hash
	if prev != nil {
		if rows, first, info, found := snap.BlobRows(prev.sha); found {
			pf := storedFile(first, rows, info)
			// The docs of the previous rows are clipped as segments store
			// them; the chunks Edit keeps carry them clipped, and the
			// segment writer clips them the same way.
			f, ok = chunk.Edit(path, content, prev.content, pf)
		}
	}
	if ok {
		// Only chunks this chunker version made are a base for an edit.
		st, err := sf.get()
		if err != nil {
			return nil, err
		}
		ok = ix.sameChunker(st, prev.sha)
	}
	if prev != nil && ix.opts.Embedder != nil {
		known = prevVectors(snap, prev.sha)
	}
	if sc, found := ix.opts.Shared[sha]; !ok && found && usableShared(sc) {
		f = chunk.FromShared(path, content, append([]chunk.Chunk(nil), sc...))
	} else if !ok {
		f = chunk.Split(path, content)
	}
	r.spliced = ok
	r.rec.Language, r.rec.Fallback, r.rec.SyntaxErrors = f.Language, f.Fallback, f.SyntaxErrors
	n := len(f.Chunks)
	r.rec.Chunks = make([]store.ChunkRecord, n)
	r.tokens = make([][]string, n)
	r.vectors = make([][]int8, n)
	r.scales = make([]float32, n)
	texts := make([]string, n)
	var keyChunk []int // chunks with text, which have or get a vector
	for i, c := range f.Chunks {
		text := vocab.IndexText(content, f, i)
		cr := store.ChunkRecord{Kind: c.Kind, Name: c.Name, Signature: c.Signature, Parent: c.Parent,
			StartLine: c.StartLine, EndLine: c.EndLine, StartByte: c.StartByte, EndByte: c.EndByte, SyntaxError: c.SyntaxError,
			Meta: store.Meta{Doc: c.Doc, QualifiedName: c.QualifiedName, Access: c.Access, Decorators: c.Decorators, Imports: c.Imports, ErrorDetail: c.ErrorDetail}}
		if strings.TrimSpace(text) != "" {
			cr.Hash = store.ContentHash(text)
			texts[i] = text
			// The name counts twice: once here, once in the text, so definitions
			// named like the query outrank chunks that merely mention it.
			r.tokens[i] = lexical.AppendTokens(lexical.Tokens(c.Name), text)
			if ix.opts.Embedder != nil {
				// Vectors of chunks whose text the previous version of the
				// file, or (with a remote embedder) any indexed blob or a
				// fetched share, already had are reused.
				q, scale, found := known.get(cr.Hash)
				if !found {
					q, scale, found = ix.stored.get(cr.Hash)
				}
				if found {
					r.vectors[i], r.scales[i] = q, scale
					r.reused++
				}
				keyChunk = append(keyChunk, i)
			}
		}
		r.rec.Chunks[i] = cr
	}
	var need []int
	var needTexts, sigs []string
	for _, i := range keyChunk {
		if r.vectors[i] == nil {
			need = append(need, i)
			needTexts = append(needTexts, texts[i])
			sigs = append(sigs, f.Chunks[i].Signature)
		}
	}
	if len(need) > 0 {
		r.toEmbed = &toEmbed{path: path, chunks: need}
		r.toEmbed.inputs, r.toEmbed.owner = embedInputs(needTexts, sigs)
		if !ix.embedAcross {
			if err := embedBlobs(ctx, ix.opts.Embedder, []*blobResult{r}); err != nil {
				return nil, err
			}
			for _, i := range need {
				ix.stored.remember(r.rec.Chunks[i].Hash, r.vectors[i], r.scales[i])
			}
		}
	}
	return r, nil
}

// grams returns what exact search keeps of a blob: its trigrams, whether
// it is binary (git's rule: a NUL in the first 8000 bytes), and its bytes
// as the segment stores them. It covers generated, minified and large
// files too, as git grep does; a binary file's trigrams let a search rule
// it out unread (git grep -I passes over it, git grep matches it whole);
// one over MaxExactSize was not read, so grep reads it from git. The
// bytes of a binary blob that LZ4 cannot shrink by an eighth (an image,
// an archive, random test data) are not kept: git's pack holds them no
// bigger, their text trigrams rule them out of nearly every search, and
// grep reads the few candidates from git (2.6 of the 10.4 MB the binary
// blobs of the Go toolchain's src/ would take).
//
// A large text blob's trigrams are also kept in pieces (ngram.Pieces), so
// that a search rules it out unless one piece may hold a match, and its
// bytes are stored in the same pieces, so that such a search decodes only
// the pieces that may.
func grams(content []byte, size int64) (grams []uint32, pieces [][]uint32, binary bool, text segment.Stored) {
	if int64(len(content)) != size {
		return nil, nil, false, segment.Stored{}
	}
	binary = bytes.IndexByte(content[:min(len(content), 8000)], 0) >= 0
	var ends []int
	if !binary {
		ends = ngram.Bounds(content)
		pieces = ngram.Pieces(content, ends)
	}
	if pieces != nil {
		grams = ngram.Union(pieces)
	} else {
		grams = exact.Trigrams(content, make([]uint32, 0, min(len(content), 1<<14)))
	}
	text = segment.StoreText(content, ends)
	if binary && len(text.Bytes) == len(content) {
		text = segment.Stored{}
	}
	return grams, pieces, binary, text
}

// exactOnly is the result for a blob that only exact search reads (its
// path is vendored, say): a record with the path's skip reason, no chunks,
// and its trigrams.
func exactOnly(sha plumbing.Hash, pathSkip string, content []byte, size, max int64) *blobResult {
	r := &blobResult{sha: sha, size: int(size), exactOnly: true,
		rec: &store.BlobRecord{ChunkerVersion: chunk.Version, Size: size, Skip: pathSkip}}
	if skip := contentSkip(content, size, max); skip == gitindex.SkipBinary || skip == gitindex.SkipTooLarge {
		r.rec.Skip = skip
	}
	r.grams, r.pieces, r.binary, r.text = grams(content, size)
	return r
}

// sameChunker reports whether the indexed blob sha was chunked by this
// chunker version: chunks an older version made are no base for an edit,
// whose result must be what chunk.Split makes now.
func (ix *Indexer) sameChunker(st *storewrite.Store, sha plumbing.Hash) bool {
	rec, err := st.Blob(sha)
	return err == nil && rec != nil && rec.ChunkerVersion == chunk.Version
}

// contentSkip decides from the content whether a blob is indexed.
func contentSkip(content []byte, size, max int64) string {
	if size > max || int64(len(content)) != size {
		return gitindex.SkipTooLarge
	}
	head := content[:min(len(content), 8000)]
	if bytes.IndexByte(head, 0) >= 0 {
		return gitindex.SkipBinary
	}
	top := head[:min(len(head), 1024)]
	if (bytes.Contains(top, []byte("Code generated")) && bytes.Contains(top, []byte("DO NOT EDIT"))) || bytes.Contains(top, []byte("@generated")) {
		return gitindex.SkipGenerated
	}
	if len(content) > 20000 && bytes.Count(content, []byte{'\n'}) < len(content)/1000 {
		return gitindex.SkipMinified
	}
	return gitindex.SkipNone
}
