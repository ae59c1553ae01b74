package segment

import (
	"bytes"
	"encoding/binary"
	"sort"
	"sync"
	"unicode/utf8"

	"github.com/klauspost/compress/zstd"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/checksum"
)

// chunks.bin layout (little endian):
//
//	header   64 B: magic "BCSEG005", nblobs u32, nrows u32, dictLen u32,
//	         namesLen u32, detailsLen u32, at 28 the CRC-32C of everything
//	         after the header, 32..59 zero, at 60 the CRC-32C of bytes 0..59
//	hashes   nrows × 16 B: each row's content hash (see Row.Hash)
//	copies   nrows × u32: the first row of the segment with the row's
//	         content hash (the row itself when it is the first), or
//	         noText (0xffffffff) when the row has no text of its own
//	rows     nrows × 36 B, see rowSize
//	blobs    nblobs × 44 B sorted by SHA: sha[20], first row u32, rows u32,
//	         size u32, skip reason u8, syntax errors u16, flags u8 (1:
//	         fallback), details offset u32, details length u32
//	dict     kinds then languages: u16 count, then (u8 len, bytes) each
//	names    the rows' names, back to back
//	details  one zstd frame per blob with rows
//
// A row: blob index u32, parent row i32 (-1 none), kind u8, language u8,
// flags u8 (1: syntax error), pad u8, start line, end line, start byte, end
// byte (u32 each), name offset u32, name length u16, pad u16.
//
// Hashes and copies are columns of their own because a search over many
// revisions reads them for every visible row (search.view.distinctContent,
// rowsWithContent): a pass over 16-byte hashes and 4-byte copies touches
// less than half the memory of one over whole rows, and the rows that the
// other scans walk (names, lines) are 36 bytes instead of 52. The hashes
// start right after the header, so a hash never straddles a cache line.
// The copies column lets a search keep one row per distinct content by
// reading 4 bytes a row, and tells whether a row has text of its own
// without reading the row.
//
// What queries read for every candidate (kind, lines, name, hash) is fixed
// size or in the names heap; what only a displayed hit needs (signature and
// Meta) is compressed per blob: for each of the blob's rows, uvarint length
// and bytes of the signature, then of the encoded Meta.
const (
	segMagic   = "BCSEG005"
	headerSize = 64
	blobSize   = 44
	rowSize    = 36
	hashSize   = 16
	copySize   = 4

	flagSyntaxError = 1 << 0

	// noText is the copies entry of a row without text of its own.
	noText = 1<<32 - 1
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

// TableWriter accumulates rows for one segment, blob by blob.
type TableWriter struct {
	Blobs []segBlob
	Rows  []Row
}

type segBlob struct {
	sha         [20]byte
	first, n    int
	info        BlobInfo
	originalIdx int
	details     []byte // compressed details, when copied from another segment
}

// BlobInfo is what a segment records about a blob besides its rows.
type BlobInfo struct {
	Size         int64
	Skip         string // content skip reason
	SyntaxErrors int
	Fallback     bool
}

func (w *TableWriter) AddBlob(sha [20]byte, info BlobInfo, rows []Row) {
	w.Blobs = append(w.Blobs, segBlob{sha: sha, first: len(w.Rows), n: len(rows), info: info, originalIdx: len(w.Blobs)})
	w.Rows = append(w.Rows, rows...)
}

// AddBlobDetails adds a blob whose rows' details are already compressed
// (copied from another segment); the rows' Signature and Meta are ignored.
func (w *TableWriter) AddBlobDetails(sha [20]byte, info BlobInfo, rows []Row, details []byte) {
	w.AddBlob(sha, info, rows)
	w.Blobs[len(w.Blobs)-1].details = details
}

// BlobIndex returns a lookup of each added blob's index in the encoded
// blob table, which is sorted by SHA.
func (w *TableWriter) BlobIndex() func(sha [20]byte) (int, bool) {
	shas := make([][20]byte, len(w.Blobs))
	for i, b := range w.Blobs {
		shas[i] = b.sha
	}
	sort.Slice(shas, func(i, j int) bool { return bytes.Compare(shas[i][:], shas[j][:]) < 0 })
	return func(sha [20]byte) (int, bool) {
		i := sort.Search(len(shas), func(i int) bool { return bytes.Compare(shas[i][:], sha[:]) >= 0 })
		return i, i < len(shas) && shas[i] == sha
	}
}

func (w *TableWriter) Encode() []byte {
	sorted := append([]segBlob(nil), w.Blobs...)
	sort.Slice(sorted, func(i, j int) bool { return bytes.Compare(sorted[i].sha[:], sorted[j].sha[:]) < 0 })
	blobIdx := make([]int, len(w.Blobs))
	for i, b := range sorted {
		blobIdx[b.originalIdx] = i
	}
	kinds, langs := newDict(), newDict()
	var names, details bytes.Buffer
	detailAt := make([][2]uint32, len(w.Blobs)) // offset, length by original index
	var raw []byte
	nrows := len(w.Rows)
	// The fixed-size sections are written in place after the header.
	hashesAt := headerSize
	copiesAt := hashesAt + nrows*hashSize
	rowsAt := copiesAt + nrows*copySize
	blobsAt := rowsAt + nrows*rowSize
	out := make([]byte, blobsAt+len(sorted)*blobSize)
	le := binary.LittleEndian
	for bi, b := range w.Blobs {
		raw = raw[:0]
		for r := b.first; r < b.first+b.n; r++ {
			row := w.Rows[r]
			rec := out[rowsAt+r*rowSize : rowsAt+(r+1)*rowSize]
			le.PutUint32(rec[0:], uint32(blobIdx[bi]))
			le.PutUint32(rec[4:], uint32(int32(row.Parent)))
			rec[8] = kinds.id(row.Kind)
			rec[9] = langs.id(row.Language)
			if row.SyntaxError {
				rec[10] |= flagSyntaxError
			}
			le.PutUint32(rec[12:], uint32(row.StartLine))
			le.PutUint32(rec[16:], uint32(row.EndLine))
			le.PutUint32(rec[20:], uint32(row.StartByte))
			le.PutUint32(rec[24:], uint32(row.EndByte))
			name := Clip(row.Name, 1<<16-1)
			le.PutUint32(rec[28:], uint32(names.Len()))
			le.PutUint16(rec[32:], uint16(len(name)))
			names.WriteString(name)
			copy(out[hashesAt+r*hashSize:], row.Hash[:])
			if b.details == nil {
				raw = binary.AppendUvarint(raw, uint64(len(row.Signature)))
				raw = append(raw, row.Signature...)
				raw = binary.AppendUvarint(raw, uint64(len(row.MetaBytes)))
				raw = append(raw, row.MetaBytes...)
			}
		}
		frame := b.details
		if frame == nil && b.n > 0 {
			frame = detailCodec.encoder().EncodeAll(raw, nil)
		}
		detailAt[bi] = [2]uint32{uint32(details.Len()), uint32(len(frame))}
		details.Write(frame)
	}
	copiesColumn(out[copiesAt:rowsAt], w.Rows)
	for i, b := range sorted {
		rec := out[blobsAt+i*blobSize : blobsAt+(i+1)*blobSize]
		copy(rec[:20], b.sha[:])
		le.PutUint32(rec[20:], uint32(b.first))
		le.PutUint32(rec[24:], uint32(b.n))
		le.PutUint32(rec[28:], uint32(min(b.info.Size, 1<<32-1)))
		rec[32] = gitindex.SkipCode(b.info.Skip)
		le.PutUint16(rec[33:], uint16(min(b.info.SyntaxErrors, 1<<16-1)))
		if b.info.Fallback {
			rec[35] = 1
		}
		le.PutUint32(rec[36:], detailAt[b.originalIdx][0])
		le.PutUint32(rec[40:], detailAt[b.originalIdx][1])
	}
	var dict bytes.Buffer
	kinds.write(&dict)
	langs.write(&dict)

	copy(out, segMagic)
	le.PutUint32(out[8:], uint32(len(sorted)))
	le.PutUint32(out[12:], uint32(nrows))
	le.PutUint32(out[16:], uint32(dict.Len()))
	le.PutUint32(out[20:], uint32(names.Len()))
	le.PutUint32(out[24:], uint32(details.Len()))
	out = append(out, dict.Bytes()...)
	out = append(out, names.Bytes()...)
	out = append(out, details.Bytes()...)
	le.PutUint32(out[28:], checksum.Sum(out[headerSize:]))
	le.PutUint32(out[60:], checksum.Sum(out[:60]))
	return out
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

// copiesColumn fills the copies section: for each row, the first row with
// the same content hash, or noText for a row without text of its own.
func copiesColumn(out []byte, rows []Row) {
	first := make(map[[16]byte]uint32, len(rows))
	for r, row := range rows {
		c := uint32(r)
		switch {
		case !row.Indexed:
			c = noText
		case row.Hash != [16]byte{}:
			if f, ok := first[row.Hash]; ok {
				c = f
			} else {
				first[row.Hash] = c
			}
		}
		binary.LittleEndian.PutUint32(out[copySize*r:], c)
	}
}
