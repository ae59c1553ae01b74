package share

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"
	"unicode"

	"github.com/bcindex/bcindex/chunk"
	"github.com/bcindex/bcindex/chunk/vocab"
	"github.com/bcindex/bcindex/internal/checksum"
	"github.com/bcindex/bcindex/segment"
	"github.com/bcindex/bcindex/store"
)

type sharedChunk struct {
	rec   store.ChunkRecord
	vec   []int8
	scale float32
}

// segmentChunks reads the rows of one blob and their vectors.
func segmentChunks(seg *segment.Segment, first, n int) ([]sharedChunk, error) {
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
			SyntaxError: row.SyntaxError, Hash: row.Hash, Meta: row.Meta()}
		if seg.Vec != nil {
			var err error
			if c.vec, c.scale, err = seg.Vec.RowErr(r); err != nil {
				return nil, fmt.Errorf("read vectors of segment %s: %w", seg.ID, err)
			}
		}
	}
	return out, nil
}

// encodeShareEntry encodes the chunks of one blob, their metadata and
// their vectors, followed by the checksum.
func encodeShareEntry(version, dim int, chunks []sharedChunk) []byte {
	e := segment.Encoder{}
	e.Buf = append(e.Buf, shareMagic...)
	e.Uint(uint64(version))
	e.Uint(uint64(dim))
	e.Uint(uint64(len(chunks)))
	for _, sc := range chunks {
		c := sc.rec
		c.EncodePlace(&e, true)
		c.Meta.Encode(&e)
		e.Bool(sc.vec != nil)
		if sc.vec != nil {
			e.Uint(uint64(math.Float32bits(sc.scale)))
			for _, x := range sc.vec {
				e.Buf = append(e.Buf, byte(x))
			}
		}
	}
	return binary.LittleEndian.AppendUint32(e.Buf, checksum.Sum(e.Buf))
}

// errEntryChecksum is a share entry whose bytes do not match its checksum.
var errEntryChecksum = errors.New("checksum mismatch")

// decodeShareEntry parses an entry; malformed input is an error, never a panic.
func decodeShareEntry(p []byte) (version int, chunks []sharedChunk, err error) {
	withMeta := bytes.HasPrefix(p, []byte(shareMagic))
	if !withMeta && !bytes.HasPrefix(p, []byte(shareMagicV1)) {
		return 0, nil, errors.New("bad header")
	}
	if withMeta {
		if len(p) < len(shareMagic)+4 {
			return 0, nil, errors.New("short entry")
		}
		body := p[:len(p)-4]
		if checksum.Sum(body) != binary.LittleEndian.Uint32(p[len(body):]) {
			return 0, nil, errEntryChecksum
		}
		p = body
	}
	d := segment.Decoder{Buf: p[len(shareMagic):]}
	version = int(d.Uint())
	dim := int(d.Uint())
	n := d.Uint()
	if d.Err != nil || n > uint64(len(p)) || dim > 1<<16 {
		return 0, nil, errors.New("bad counts")
	}
	chunks = make([]sharedChunk, n)
	for i := range chunks {
		chunks[i].rec.DecodePlace(&d, true)
		if withMeta {
			chunks[i].rec.Meta.Decode(&d)
		}
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
		if !groundedMeta(content, &c.Meta) {
			return "bad metadata"
		}
	}
	for i, sc := range chunks {
		if sc.rec.Hash == ([16]byte{}) {
			if sc.vec != nil {
				return "bad vector"
			}
			continue
		}
		if store.ContentHash(vocab.IndexText(content, f, i)) != sc.rec.Hash {
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
			StartLine: c.StartLine, EndLine: c.EndLine, StartByte: c.StartByte, EndByte: c.EndByte, SyntaxError: c.SyntaxError,
			Doc: c.Doc, QualifiedName: c.QualifiedName, Access: c.Access, Decorators: c.Decorators, Imports: c.Imports, ErrorDetail: c.ErrorDetail}
	}
	return f
}

// groundedMeta reports whether a shared chunk's metadata could have come
// from the blob: the content hash vouches for the chunk's text only, so the
// words of its doc, decorators and imports must occur in the blob, the
// access level must be one the chunker gives, and the derived strings
// (qualified name, syntax error) stay short. A share cannot attach text
// of its own to somebody's code.
func groundedMeta(content []byte, m *store.Meta) bool {
	switch m.Access {
	case "", "public", "private", "protected", "internal", "package":
	default:
		return false
	}
	if len(m.QualifiedName) > 1024 || len(m.ErrorDetail) > 256 {
		return false
	}
	words := []string{m.Doc}
	words = append(words, m.Decorators...)
	words = append(words, m.Imports...)
	for _, s := range words {
		for _, w := range strings.FieldsFunc(s, notWordRune) {
			if !bytes.Contains(content, []byte(w)) {
				return false
			}
		}
	}
	return true
}

func notWordRune(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' }
