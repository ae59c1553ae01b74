package store

// On-disk layout of the bcindex store, schema version 15.
//
// Everything lives in <common git dir>/bcindex/:
//
//	db/                     Badger: the durable store, opened only by the indexer
//	  "meta/schema"           → uvarint SchemaVersion
//	  "b/" + blob SHA (20 B)  → blob record: record version, chunker version,
//	                            content skip reason, size, language, fallback
//	                            flag and syntax-error count (its chunks are
//	                            the segment rows')
//	  "s/" + segment ID + "/" + vector file name + "/" + part (u16, big endian)
//	                          → a segment's int8 vectors and scales of one
//	                            model (and each vector's sign bits), one per
//	                            distinct content of the
//	                            segment that no other live segment stored
//	                            when it was written (its first row with
//	                            text of its own and that content hash; the
//	                            copies column maps every row to it,
//	                            Table.VectorIndex), PartRows vectors a part,
//	                            in package vector's segment format, padded
//	                            to MinPart so that Badger keeps them in its
//	                            value log (NNNNNN.vlog), where queries map
//	                            them (vlog.go); a part stays while a live
//	                            segment's locator names it
//	  "e/" + content hash (16 B) + uvarint prompt version + chat model name
//	                          → JSON summary a chat model wrote of a chunk's
//	                            text (`git bcindex enhance`): summary,
//	                            keywords, purpose, marked generated. Derived
//	                            data, keyed by content so every blob, path
//	                            and revision holding the text shares it; a
//	                            store without "e/" keys has none yet, so they
//	                            need no schema version (summary.go)
//	summaries.bin           the summary index: the "e/" summaries of one chat
//	                        model and prompt version with BM25 postings over
//	                        their words and, for one embedder, their vectors,
//	                        by content hash, CRC-32C at the end; derived data
//	                        `enhance` rewrites (sumindex.go), no schema version
//	segments/MANIFEST       JSON: schema version, the live segment IDs and the
//	                        CRC-32C of the rest (crc32c)
//	segments/<id>/          one immutable segment per indexing run (merged by gc)
//	  chunks.bin              a unit table, one entry per distinct chunk of
//	                          the segment (content hash and first copy in
//	                          columns of their own, kind, language, name,
//	                          line count and byte length, and signature
//	                          and Meta compressed in frames of units), a
//	                          12-byte row per chunk of each blob naming its
//	                          unit, start byte, start line and parent, the
//	                          blobs' row spans in row order, and the blob
//	                          table (sorted by SHA → row range)
//	                          (segment/chunks.go)
//	  lex.bin                 BM25 postings over the rows, once per content:
//	                          a row that repeats an earlier row's content
//	                          (copies column) has its length but no
//	                          postings of its own (package lexical)
//	  grams.bin               trigrams of every blob read whole, binary ones
//	                          marked, for exact search (package ngram)
//	  content.bin             the bytes of every blob read whole (a binary
//	                          one only when LZ4 shrinks it), LZ4-compressed,
//	                          for exact search to verify its candidates; a
//	                          large text blob one block per piece of
//	                          grams.bin, with its first line number
//	                          (segment/content.go)
//	  vec-<model>.loc         where the segment's vectors of a model are in
//	                          Badger's value log: file, offset, length,
//	                          rows and key (owner segment, part number) of
//	                          each part, its own first, then other
//	                          segments' parts it shares, and, when it
//	                          shares any, each distinct content's slot
//	                          among their vectors (locator.go)
//	trees/<ab>/<cdef…>      flattened (path, blob, skip reason) listing of a
//	                        tree, keyed by tree SHA; paths front-coded, a
//	                        CRC-32C at the end (a cache: rebuilt when damaged)
//	trees/pack/pack-<sha>.pack  the listings one history run derived, each
//	                        a delta against its parent commit's (in full
//	                        every 256 or after a large change), a CRC-32C
//	                        per record, and an index by tree SHA
//	                        (gitindex/listingpack.go)
//	changes/…               pickaxe's change tables (a cache written through
//	                        internal/cache, each entry with a hidden
//	                        .<name>.lock beside it)
//	index.lock              held by the one running indexer (flock)
//	hook.log                output of background hook runs
//
// A chunk's content hash is the first 16 bytes of SHA-256 over the text the
// chunk indexes (vocab.IndexText). Snippets are read back from the git blob
// by byte range; content.bin is read by exact search only.
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
//	5: chunks.bin (BCSEG005) holds the content hashes and the copies
//	   column (which also says whether a row has text of its own) as
//	   columns of their own ahead of the rows; rows shrink from 52 to 36
//	   bytes.
//	6: vectors are stored once, in Badger: per segment and model as parts
//	   in the value log ("s/" keys), which queries map through the
//	   segment's locator (vec-<model>.loc), instead of per content hash
//	   ("v/" keys) and again in the segment (vec-<model>.bin).
//	7: segments hold grams.bin, the blobs' trigram postings, so that
//	   exact search (git bcindex grep) answers from the index.
//	8: binary blobs have trigrams too (BCGRAM02), and segments hold
//	   content.bin, the text blobs' bytes, which exact search reads
//	   instead of inflating them from git's packs.
//	9: grams.bin (BCGRAM04) also indexes a large text blob in pieces of
//	   whole lines, each a document after the blob's, and covers blobs
//	   up to 64 MiB, so that a search reads few large blobs.
//	10: a segment stores one vector per distinct content instead of one
//	   per row: rows that repeat a content hash (versions of a file that
//	   share most functions) share their first copy's vector, which the
//	   copies column locates, so the vectors of a history shrink by the
//	   share of rows that are copies.
//	11: content.bin (BCTEXT02) stores a blob grams.bin indexes in pieces
//	   as one LZ4 block per piece, with the piece's offset and first line
//	   number, so that a search without context lines decodes only the
//	   pieces that may hold a match.
//	12: lex.bin holds postings once per distinct content of a segment:
//	   only for a row that is its own first copy (copies column); a copy
//	   keeps its length and reads its first copy's postings, so that the
//	   postings of a history shrink by the share of rows that are copies;
//	   the copies column marks a copy named otherwise than its first copy
//	   (bit 31), whose terms differ by the names' tokens.
//	   chunks.bin (BCSEG006) stores each distinct chunk of a segment
//	   once, as a unit (hash, kind, language, name, line count, byte
//	   length, signature and Meta), and per row of a blob only its unit,
//	   blob, parent and start line and byte: the versions of a file that
//	   share most chunks share their units. Blob records (version 4)
//	   keep only the blob's chunker version, skip reason, size, language
//	   and syntax-error counts: the chunks' places and content hashes,
//	   which only segment rows are read for, are left out (a version 3
//	   record of an earlier schema-12 store is read as its header, so
//	   such a store needs no rebuild).
//	13: a segment stores a vector only for a content that no other live
//	   segment stores: its locator (BCVLOC02) also names the parts of
//	   other segments it shares, with each part's key and rows, and each
//	   distinct content's slot among the parts' vectors, so that the
//	   vectors of a history are stored about once per content rather
//	   than once per segment.
//	14: grams.bin (BCGRAM05) numbers a segment's documents by the
//	   min-hash signatures of their trigram sets, so that the versions of
//	   a file are neighbours, and stores each postings list as runs of
//	   consecutive documents: most of a history's postings are parts of
//	   long runs.
//	15: a vector part (package vector's segment format version 2) stores
//	   each row's sign bits after its scales, which the vector arm's
//	   pre-filter compares, so a query maps them instead of computing
//	   them from every vector; parts of version 1 are not read.
//	16: chunks.bin (BCSEG007) keeps a row in 12 bytes instead of 24: the
//	   copies entry is the unit's (a unit has one content hash and name),
//	   the blob follows from a column of the blobs' row spans in row
//	   order, and the start line and parent (as rows back) take 16 bits
//	   each, with the few that do not fit in a column of wide rows.

import (
	"crypto/sha256"
	"errors"
	"fmt"

	"github.com/bcindex/bcindex/segment"
)

// SchemaVersion is the version of the layout described above.
const SchemaVersion = 16

// ErrSchema is returned when the store was written by another schema version.
var ErrSchema = errors.New("index schema mismatch")

var (
	KeySchema = []byte("meta/schema")
	PrefBlob  = []byte("b/")
)

func BlobKey(sha [20]byte) []byte {
	k := make([]byte, 0, len(PrefBlob)+20)
	return append(append(k, PrefBlob...), sha[:]...)
}

// ContentHash identifies a chunk's indexed text: rows with the same hash
// share a vector.
func ContentHash(text string) [16]byte {
	sum := sha256.Sum256([]byte(text))
	var h [16]byte
	copy(h[:], sum[:16])
	return h
}

// BlobRecord is what the store knows about one blob. Its chunks are written
// to segment rows only (see Encode): the indexer fills Chunks to make the
// rows, and a decoded record has none.
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
	segment.Meta
}

// EncodePlace writes what locates and identifies a chunk: kind, name,
// signature (when withSignature), parent, lines, bytes, syntax-error flag
// and content hash.
func (c *ChunkRecord) EncodePlace(e *segment.Encoder, withSignature bool) {
	e.Str(c.Kind)
	e.Str(c.Name)
	if withSignature {
		e.Str(c.Signature)
	}
	e.Uint(uint64(c.Parent + 1))
	e.Uint(uint64(c.StartLine))
	e.Uint(uint64(c.EndLine))
	e.Uint(uint64(c.StartByte))
	e.Uint(uint64(c.EndByte))
	e.Bool(c.SyntaxError)
	e.Buf = append(e.Buf, c.Hash[:]...)
}

func (c *ChunkRecord) DecodePlace(d *segment.Decoder, withSignature bool) {
	c.Kind, c.Name = d.Str(), d.Str()
	if withSignature {
		c.Signature = d.Str()
	}
	c.Parent = int(d.Uint()) - 1
	c.StartLine, c.EndLine = int(d.Uint()), int(d.Uint())
	c.StartByte, c.EndByte = int(d.Uint()), int(d.Uint())
	c.SyntaxError = d.Bool()
	copy(c.Hash[:], d.Bytes(16))
}

// blobRecordVersion 3 also held every chunk's place and content hash,
// which only segment rows are read for; a version 3 record is read as its
// header.
const blobRecordVersion = 4

// Encode keeps what the indexer asks of a blob it has indexed: the chunker
// version that chunked it (an edit reuses only chunks this version made),
// its skip reason, size, language and syntax-error counts. Its chunks are
// left out: segment rows hold them (kind, name, place, content hash as a
// unit and a row per chunk), and a record per blob that repeated them cost
// a history about as much again as the units.
func (b *BlobRecord) Encode() []byte {
	e := segment.Encoder{Buf: make([]byte, 0, 32+len(b.Skip)+len(b.Language))}
	e.Uint(blobRecordVersion)
	e.Uint(uint64(b.ChunkerVersion))
	e.Str(b.Skip)
	e.Uint(uint64(b.Size))
	e.Str(b.Language)
	e.Bool(b.Fallback)
	e.Uint(uint64(b.SyntaxErrors))
	return e.Buf
}

// DecodeBlobRecord reads a record Encode wrote (Chunks nil); a version 3
// record's chunks are passed over unread.
func DecodeBlobRecord(p []byte) (*BlobRecord, error) {
	d := segment.Decoder{Buf: p}
	v := d.Uint()
	if v != blobRecordVersion && v != 3 {
		return nil, fmt.Errorf("blob record version %d: %w", v, ErrSchema)
	}
	b := &BlobRecord{}
	b.ChunkerVersion = int(d.Uint())
	b.Skip = d.Str()
	b.Size = int64(d.Uint())
	b.Language = d.Str()
	b.Fallback = d.Bool()
	b.SyntaxErrors = int(d.Uint())
	if d.Err != nil {
		return nil, fmt.Errorf("corrupt blob record: %w", d.Err)
	}
	if v == blobRecordVersion && len(d.Buf) != 0 {
		return nil, errors.New("corrupt blob record: trailing bytes")
	}
	return b, nil
}

// Meta is a chunk's descriptive metadata, kept in segment rows
// (segment.Meta).
type Meta = segment.Meta
