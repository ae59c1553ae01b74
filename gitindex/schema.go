package gitindex

// On-disk layout of the bcindex store, schema version 4.
//
// Everything lives in <common git dir>/bcindex/:
//
//	db/                     Badger: the durable store, opened only by the indexer
//	  "meta/schema"           → uvarint SchemaVersion
//	  "b/" + blob SHA (20 B)  → blob record: chunker version, content skip reason,
//	                            size, language, and what identifies every chunk
//	                            (kind, name, parent, lines, bytes, syntax-error
//	                            flag, content hash)
//	  "v/" + model + "/" + content hash (16 B)
//	                          → int8 vector and scale (package vector); shared
//	                            by every chunk with that content
//	segments/MANIFEST       JSON: schema version, the live segment IDs and the
//	                        CRC-32C of the rest (crc32c)
//	segments/<id>/          one immutable segment per indexing run (merged by gc)
//	  chunks.bin              blob table (sorted by SHA → row range), one
//	                          fixed-size row per chunk, and per blob the rows'
//	                          signatures and Meta, compressed (segment.go)
//	  lex.bin                 BM25 postings over the rows (package lexical)
//	  vec-<model>.bin         flat int8 vectors, one per row (package vector)
//	trees/<ab>/<cdef…>      flattened (path, blob, skip reason) listing of a
//	                        tree, keyed by tree SHA; paths front-coded, a
//	                        CRC-32C at the end (a cache: rebuilt when damaged)
//	index.lock              held by the one running indexer (flock)
//	hook.log                output of background hook runs
//
// A chunk's content hash is the first 16 bytes of SHA-256 over the text the
// chunk indexes (chunk.IndexText). Chunk text itself is never stored:
// snippets are read back from the git blob by byte range.
//
// Schema history:
//
//	1: first version.
//	2: chunk metadata (qualified name, access, decorators, imports used,
//	   syntax-error detail) in blob records and segment rows; the segment
//	   blob table carries each blob's syntax-error count and fallback flag.
//	3: signatures and Meta compressed per blob in segments (BCSEG003) and
//	   left out of blob records; postings format 2 (package lexical).
//	4: chunks.bin (BCSEG004) and the manifest carry CRC-32C checksums;
//	   every segment file is verified when it is mapped.

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
)

// SchemaVersion is the version of the layout described above.
const SchemaVersion = 4

// ErrSchema is returned when the store was written by another schema version.
var ErrSchema = errors.New("index schema mismatch")

var (
	keySchema = []byte("meta/schema")
	prefBlob  = []byte("b/")
)

func blobKey(sha [20]byte) []byte {
	k := make([]byte, 0, len(prefBlob)+20)
	return append(append(k, prefBlob...), sha[:]...)
}

// ContentHash is the key under which a chunk's vector is shared.
func ContentHash(text string) [16]byte {
	sum := sha256.Sum256([]byte(text))
	var h [16]byte
	copy(h[:], sum[:16])
	return h
}

// BlobRecord is what the store knows about one blob. The chunks' signatures
// and Meta are written to segment rows only (see encode).
type BlobRecord struct {
	ChunkerVersion int
	Skip           string // content-based skip reason, or SkipNone
	Size           int64
	Language       string
	Fallback       bool
	SyntaxErrors   int
	Chunks         []ChunkRecord
}

// ChunkRecord is one chunk's metadata. Hash is zero when the chunk has no
// text of its own to index.
type ChunkRecord struct {
	Kind, Name, Signature string
	Parent                int
	StartLine, EndLine    int
	StartByte, EndByte    int
	SyntaxError           bool
	Hash                  [16]byte
	Meta
}

// Meta is a chunk's descriptive metadata, shown in results but not used to
// find rows.
type Meta struct {
	QualifiedName string   `json:"qualified_name,omitempty"`
	Access        string   `json:"access,omitempty"`
	Decorators    []string `json:"decorators,omitempty"`
	Imports       []string `json:"imports,omitempty"`
	Doc           string   `json:"doc,omitempty"`
	ErrorDetail   string   `json:"syntax_error,omitempty"`
}

func (m *Meta) encode(e *encoder) {
	e.str(m.QualifiedName)
	e.str(m.Access)
	e.strs(m.Decorators)
	e.strs(m.Imports)
	e.str(m.Doc)
	e.str(m.ErrorDetail)
}

func (m *Meta) decode(d *decoder) {
	m.QualifiedName = d.str()
	m.Access = d.str()
	m.Decorators = d.strs()
	m.Imports = d.strs()
	m.Doc = d.str()
	m.ErrorDetail = d.str()
}

// encodePlace writes what locates and identifies a chunk: kind, name,
// signature (when withSignature), parent, lines, bytes, syntax-error flag
// and content hash.
func (c *ChunkRecord) encodePlace(e *encoder, withSignature bool) {
	e.str(c.Kind)
	e.str(c.Name)
	if withSignature {
		e.str(c.Signature)
	}
	e.uint(uint64(c.Parent + 1))
	e.uint(uint64(c.StartLine))
	e.uint(uint64(c.EndLine))
	e.uint(uint64(c.StartByte))
	e.uint(uint64(c.EndByte))
	e.bool(c.SyntaxError)
	e.buf = append(e.buf, c.Hash[:]...)
}

func (c *ChunkRecord) decodePlace(d *decoder, withSignature bool) {
	c.Kind, c.Name = d.str(), d.str()
	if withSignature {
		c.Signature = d.str()
	}
	c.Parent = int(d.uint()) - 1
	c.StartLine, c.EndLine = int(d.uint()), int(d.uint())
	c.StartByte, c.EndByte = int(d.uint()), int(d.uint())
	c.SyntaxError = d.bool()
	copy(c.Hash[:], d.bytes(16))
}

const blobRecordVersion = 3

// encode keeps what identifies each chunk and its vector. Signatures and
// Meta are display text that the segment rows hold (compressed) and that
// chunking the blob again reproduces, so the durable record leaves them out.
func (b *BlobRecord) encode() []byte {
	e := encoder{buf: make([]byte, 0, 64+len(b.Chunks)*64)}
	e.uint(blobRecordVersion)
	e.uint(uint64(b.ChunkerVersion))
	e.str(b.Skip)
	e.uint(uint64(b.Size))
	e.str(b.Language)
	e.bool(b.Fallback)
	e.uint(uint64(b.SyntaxErrors))
	e.uint(uint64(len(b.Chunks)))
	for _, c := range b.Chunks {
		c.encodePlace(&e, false)
	}
	return e.buf
}

func decodeBlobRecord(p []byte) (*BlobRecord, error) {
	d := decoder{buf: p}
	if v := d.uint(); v != blobRecordVersion {
		return nil, fmt.Errorf("blob record version %d: %w", v, ErrSchema)
	}
	b := &BlobRecord{}
	b.ChunkerVersion = int(d.uint())
	b.Skip = d.str()
	b.Size = int64(d.uint())
	b.Language = d.str()
	b.Fallback = d.bool()
	b.SyntaxErrors = int(d.uint())
	n := d.uint()
	if d.err != nil || n > uint64(len(p)) {
		return nil, errors.New("corrupt blob record")
	}
	b.Chunks = make([]ChunkRecord, n)
	for i := range b.Chunks {
		c := &b.Chunks[i]
		c.decodePlace(&d, false)
	}
	if d.err != nil {
		return nil, fmt.Errorf("corrupt blob record: %w", d.err)
	}
	return b, nil
}

type encoder struct{ buf []byte }

func (e *encoder) uint(v uint64) { e.buf = binary.AppendUvarint(e.buf, v) }
func (e *encoder) str(s string)  { e.uint(uint64(len(s))); e.buf = append(e.buf, s...) }
func (e *encoder) strs(ss []string) {
	e.uint(uint64(len(ss)))
	for _, s := range ss {
		e.str(s)
	}
}
func (e *encoder) bool(v bool) {
	if v {
		e.buf = append(e.buf, 1)
	} else {
		e.buf = append(e.buf, 0)
	}
}

type decoder struct {
	buf []byte
	err error
}

var errShort = errors.New("record truncated")

func (d *decoder) uint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.buf)
	if n <= 0 {
		d.err = errShort
		return 0
	}
	d.buf = d.buf[n:]
	return v
}

func (d *decoder) bytes(n int) []byte {
	if d.err != nil || n < 0 || n > len(d.buf) {
		d.err = errShort
		return nil
	}
	b := d.buf[:n]
	d.buf = d.buf[n:]
	return b
}

func (d *decoder) str() string { return string(d.bytes(int(d.uint()))) }
func (d *decoder) strs() []string {
	n := d.uint()
	if d.err != nil || n > uint64(len(d.buf)) {
		d.err = errShort
		return nil
	}
	var out []string
	for i := uint64(0); i < n; i++ {
		out = append(out, d.str())
	}
	return out
}
func (d *decoder) bool() bool {
	b := d.bytes(1)
	return len(b) == 1 && b[0] == 1
}
