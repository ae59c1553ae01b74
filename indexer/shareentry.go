package indexer

import (
	"bytes"
	"errors"
	"fmt"
	"math"

	"github.com/bcindex/bcindex/chunk"
	"github.com/bcindex/bcindex/store"
)

type sharedChunk struct {
	rec   store.ChunkRecord
	vec   []int8
	scale float32
}

// segmentChunks reads the rows of one blob and their vectors.
func segmentChunks(seg *store.Segment, first, n int) []sharedChunk {
	out := make([]sharedChunk, n)
	for r := first; r < first+n; r++ {
		row := seg.RowDetail(r)
		parent := -1
		if row.Parent >= 0 {
			parent = row.Parent - first
		}
		c := &out[r-first]
		c.rec = store.ChunkRecord{Kind: row.Kind, Name: row.Name, Signature: row.Signature, Parent: parent,
			StartLine: row.StartLine, EndLine: row.EndLine, StartByte: row.StartByte, EndByte: row.EndByte,
			SyntaxError: row.SyntaxError, Hash: row.Hash}
		if seg.Vec != nil {
			c.vec, c.scale = seg.Vec.Row(r)
		}
	}
	return out
}

// encodeShareEntry encodes the chunks of one blob and their vectors.
func encodeShareEntry(version, dim int, chunks []sharedChunk) []byte {
	e := store.Encoder{}
	e.Buf = append(e.Buf, shareMagic...)
	e.Uint(uint64(version))
	e.Uint(uint64(dim))
	e.Uint(uint64(len(chunks)))
	for _, sc := range chunks {
		c := sc.rec
		c.EncodePlace(&e, true)
		e.Bool(sc.vec != nil)
		if sc.vec != nil {
			e.Uint(uint64(math.Float32bits(sc.scale)))
			for _, x := range sc.vec {
				e.Buf = append(e.Buf, byte(x))
			}
		}
	}
	return e.Buf
}

// decodeShareEntry parses an entry; malformed input is an error, never a panic.
func decodeShareEntry(p []byte) (version int, chunks []sharedChunk, err error) {
	if !bytes.HasPrefix(p, []byte(shareMagic)) {
		return 0, nil, errors.New("bad header")
	}
	d := store.Decoder{Buf: p[len(shareMagic):]}
	version = int(d.Uint())
	dim := int(d.Uint())
	n := d.Uint()
	if d.Err != nil || n > uint64(len(p)) || dim > 1<<16 {
		return 0, nil, errors.New("bad counts")
	}
	chunks = make([]sharedChunk, n)
	for i := range chunks {
		chunks[i].rec.DecodePlace(&d, true)
		if d.Bool() {
			chunks[i].scale = math.Float32frombits(uint32(d.Uint()))
			b := d.Bytes(dim)
			chunks[i].vec = make([]int8, len(b))
			for k, x := range b {
				chunks[i].vec[k] = int8(x)
			}
		}
		if d.Err != nil {
			return 0, nil, fmt.Errorf("chunk %d: %w", i, d.Err)
		}
	}
	if len(d.Buf) != 0 {
		return 0, nil, errors.New("trailing bytes")
	}
	return version, chunks, nil
}

// verifyEntry checks an entry against the blob it claims to describe and
// returns why it is refused, or "".
func verifyEntry(content []byte, chunks []sharedChunk, dim int) (why string) {
	defer func() {
		if recover() != nil {
			why = "malformed" // IndexText on ranges no chunker would produce
		}
	}()
	f := sharedFile(chunks)
	for i, sc := range chunks {
		c := sc.rec
		if c.StartByte < 0 || c.StartByte > c.EndByte || c.EndByte > len(content) || c.Parent >= i || (c.Parent < 0 && i > 0) {
			return "bad range"
		}
		if bytes.Count(content[:c.StartByte], []byte{'\n'})+1 != c.StartLine {
			return "bad range"
		}
		if sc.vec != nil && (len(sc.vec) != dim || !(sc.scale > 0) || math.IsInf(float64(sc.scale), 0)) {
			return "bad vector"
		}
	}
	for i, sc := range chunks {
		if sc.rec.Hash == ([16]byte{}) {
			if sc.vec != nil {
				return "bad vector"
			}
			continue
		}
		if store.ContentHash(chunk.IndexText(content, f, i)) != sc.rec.Hash {
			return "hash mismatch"
		}
	}
	return ""
}

// sharedFile is the chunk list an entry describes.
func sharedFile(chunks []sharedChunk) chunk.File {
	f := chunk.File{Chunks: make([]chunk.Chunk, len(chunks))}
	for i, sc := range chunks {
		c := sc.rec
		f.Chunks[i] = chunk.Chunk{Kind: c.Kind, Name: c.Name, Parent: c.Parent, Signature: c.Signature,
			StartLine: c.StartLine, EndLine: c.EndLine, StartByte: c.StartByte, EndByte: c.EndByte, SyntaxError: c.SyntaxError}
	}
	return f
}
