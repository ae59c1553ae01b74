package segment

import (
	"bytes"
	"encoding/binary"
	"sync"
	"unicode/utf8"

	"github.com/klauspost/compress/zstd"
)

// chunks.bin layout (little endian):
//
//	header   64 B: magic "BCSEG007", nblobs u32, nrows u32, dictLen u32,
//	         namesLen u32, detailsLen u32, at 28 the CRC-32C of everything
//	         after the header, nunits u32 at 32, nwide u32 at 36, nspans
//	         u32 at 40, 44..59 zero, at 60 the CRC-32C of bytes 0..59
//	hashes   nunits × 16 B: each unit's content hash (see Row.Hash)
//	copies   nunits × u32: for the rows of each unit, the first row of the
//	         segment with the unit's content hash (a row that is it is its
//	         own first copy), its bit 31 (renamedCopy) set when that row's
//	         name is not the unit's, noText (0xffffffff) when the unit has
//	         no text of its own, or selfCopy (0x7fffffff) when each of its
//	         rows is its own first copy (text without a content hash)
//	refs     nrows × u32: each row's unit
//	rows     nrows × 8 B: start byte u32, start line u16, parent u16 (0:
//	         none, else how many rows before the row it is); a row whose
//	         start line or parent does not fit has 0xffff in both and its
//	         values in the wide rows
//	wide     nwide × 12 B in row order: row u32, start line u32, parent
//	         i32 (-1 none)
//	spans    nspans × 8 B: first row u32 and blob index u32 of each blob
//	         with rows, in row order (the blob of a row, by bisection)
//	units    nunits × 12 B, see unitSize
//	unames   nunits × 8 B: each unit's name, offset u32 and length u16 in
//	         the names heap, pad u16
//	blobs    nblobs × 36 B sorted by SHA: sha[20], first row u32, rows u32,
//	         size u32, skip reason u8, syntax errors u16, flags u8 (1:
//	         fallback)
//	frames   ceil(nunits/unitsPerFrame) × (offset u32, length u32) of
//	         each frame of details
//	dict     kinds then languages: u16 count, then (u8 len, bytes) each
//	names    the units' names, back to back
//	details  one zstd frame per unitsPerFrame units
//
// A row is 12 bytes (its unit and its 8-byte place): what a row's copies
// entry says follows from its unit (a unit is one content hash, one name
// and whether there is text), its blob from the spans, and a chunk's start
// line and its parent, a few rows before it in the same blob, fit 16 bits
// but in very long files.
//
// A unit is what the rows of many blob versions share: everything a row
// holds except where it is (blob, parent, start line and byte). Its
// record: kind u8, language u8, flags u8 (1: syntax error), pad u8, line
// count u32 (end line - start line), byte length u32 (end byte - start
// byte); its name is in a column of its own, which a scan of names reads
// 8 bytes a unit of (search's symbol arm reads every visible row's
// name). Two rows share a unit
// only when every one of those fields, the content hash, whether the row
// has text of its own, the signature and the Meta are equal, so a row
// decodes to exactly what was written. Units are numbered in the order of
// their first row, so a blob's new units are consecutive and the same rows
// give the same file.
//
// The hashes and the copies are columns of their own because a search over
// many revisions reads them for every visible row
// (search.view.distinctContent, rowsWithContent): the references and the
// copies let a search keep one row per distinct content by reading 4 bytes
// a row, in row order, and its unit's entry, and tell whether a row has
// text of its own without reading the row or its unit; the hash, read once per distinct content, is the
// row's 4-byte reference and the unit's 16 bytes, and the versions of a
// file refer to the same few units. The hashes start right after the
// header, so a hash never straddles a cache line.
//
// What queries read for every candidate (kind, lines, name, hash) is fixed
// size or in the names heap; what only a displayed hit needs (signature and
// Meta) is compressed per frame of units: for each unit, uvarint length
// and bytes of the signature, then of the encoded Meta.
const (
	segMagic      = "BCSEG007"
	headerSize    = 64
	blobSize      = 36
	rowSize       = 8
	wideSize      = 12
	spanSize      = 8
	unitSize      = 12
	unameSize     = 8
	hashSize      = 16
	copySize      = 4
	refSize       = 4
	frameSize     = 8
	unitsPerFrame = 64

	flagSyntaxError = 1 << 0

	// noText is the copies entry of a row without text of its own.
	noText = 1<<32 - 1
	// selfCopy is the copies entry of a unit whose rows are each their
	// own first copy: indexed text without a content hash.
	selfCopy = 1<<31 - 1
	// wideMark is the start line and parent of a row whose values are in
	// the wide rows.
	wideMark = 1<<16 - 1
	// renamedCopy marks the copies entry of a copy named otherwise than
	// its first copy: a row's terms include its name's tokens, so its
	// terms are its first copy's corrected by the names' (search's text
	// arm reads the names of these copies only). A table has fewer than
	// 1<<31 rows, so the bit is never part of a row number.
	renamedCopy = 1 << 31
)

// Row is one chunk of a segment.
type Row struct {
	Blob                 int // index in the segment's blob table
	Parent               int // row in the same segment, or -1
	Kind, Language       string
	SyntaxError, Indexed bool
	StartLine, EndLine   int
	StartByte, EndByte   int
	Name                 string
	Signature            string // set by RowDetail
	Hash                 [16]byte
	MetaBytes            []byte // encoded Meta, set by RowDetail
}

// Meta decodes the row's metadata (empty unless the row came from RowDetail).
func (r Row) Meta() Meta {
	var m Meta
	if len(r.MetaBytes) > 0 {
		d := Decoder{Buf: r.MetaBytes}
		m.Decode(&d)
	}
	return m
}

// EncodeMeta encodes metadata for a segment row.
func EncodeMeta(m Meta) []byte {
	var e Encoder
	m.Encode(&e)
	return e.Buf
}

// Clip cuts s to at most n bytes, at the start of a UTF-8 character, so
// that a clipped name or doc stays valid text.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

type dict struct {
	ids   map[string]byte
	names []string
}

func newDict() *dict { return &dict{ids: map[string]byte{}} }

func (d *dict) id(s string) byte {
	if id, ok := d.ids[s]; ok {
		return id
	}
	if len(d.names) == 255 {
		return 0 // table full: the first entry stands in; 255 kinds or languages is far beyond use
	}
	id := byte(len(d.names))
	d.ids[s] = id
	d.names = append(d.names, s)
	return id
}

func (d *dict) write(b *bytes.Buffer) {
	binary.Write(b, binary.LittleEndian, uint16(len(d.names)))
	for _, n := range d.names {
		n = Clip(n, 255)
		b.WriteByte(byte(len(n)))
		b.WriteString(n)
	}
}

// detailCodec holds the zstd encoder and decoder shared by all segments;
// both are safe for concurrent use through EncodeAll and DecodeAll.
var detailCodec codec

type codec struct {
	once sync.Once
	enc  *zstd.Encoder
	dec  *zstd.Decoder
}

func (c *codec) init() {
	c.once.Do(func() {
		// Neither constructor fails with these options.
		c.enc, _ = zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderCRC(false),
			zstd.WithEncoderConcurrency(1), zstd.WithLowerEncoderMem(true))
		c.dec, _ = zstd.NewReader(nil, zstd.WithDecoderConcurrency(0), zstd.WithDecoderMaxMemory(64<<20))
	})
}

func (c *codec) encoder() *zstd.Encoder { c.init(); return c.enc }
func (c *codec) decoder() *zstd.Decoder { c.init(); return c.dec }
