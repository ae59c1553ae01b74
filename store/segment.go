package store

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math/bits"
	"os"
	"path/filepath"
	"sort"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/klauspost/compress/zstd"
	"golang.org/x/sys/unix"

	"github.com/bcindex/bcindex/chunk"
	"github.com/bcindex/bcindex/gitindex"
)

// castagnoli is the CRC-32C table of every checksum in the store.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// chunks.bin layout (little endian):
//
//	header   64 B: magic "BCSEG004", nblobs u32, nrows u32, dictLen u32,
//	         namesLen u32, detailsLen u32, at 28 the CRC-32C of everything
//	         after the header, at 60 the CRC-32C of bytes 0..59
//	dict     kinds then languages: u16 count, then (u8 len, bytes) each
//	blobs    nblobs × 44 B sorted by SHA: sha[20], first row u32, rows u32,
//	         size u32, skip reason u8, syntax errors u16, flags u8 (1:
//	         fallback), details offset u32, details length u32
//	rows     nrows × 52 B, see rowSize
//	names    the rows' names, back to back
//	details  one zstd frame per blob with rows
//
// A row: blob index u32, parent row i32 (-1 none), kind u8, language u8,
// flags u8, pad u8, start line, end line, start byte, end byte (u32 each),
// name offset u32, name length u16, pad u16, content hash [16].
//
// What queries read for every candidate (kind, lines, name, hash) is fixed
// size or in the names heap; what only a displayed hit needs (signature and
// Meta) is compressed per blob: for each of the blob's rows, uvarint length
// and bytes of the signature, then of the encoded Meta.
const (
	segMagic   = "BCSEG004"
	headerSize = 64
	blobSize   = 44
	rowSize    = 52

	flagSyntaxError = 1 << 0
	flagIndexed     = 1 << 1 // the row has text of its own (tokens, vector)
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
		m.decode(&d)
	}
	return m
}

// EncodeMeta encodes metadata for a segment row.
func EncodeMeta(m Meta) []byte {
	var e Encoder
	m.encode(&e)
	return e.Buf
}

// SegmentWriter accumulates rows for one segment, blob by blob.
type SegmentWriter struct {
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

func (w *SegmentWriter) AddBlob(sha [20]byte, info BlobInfo, rows []Row) {
	w.Blobs = append(w.Blobs, segBlob{sha: sha, first: len(w.Rows), n: len(rows), info: info, originalIdx: len(w.Blobs)})
	w.Rows = append(w.Rows, rows...)
}

// AddBlobDetails adds a blob whose rows' details are already compressed
// (copied from another segment); the rows' Signature and Meta are ignored.
func (w *SegmentWriter) AddBlobDetails(sha [20]byte, info BlobInfo, rows []Row, details []byte) {
	w.AddBlob(sha, info, rows)
	w.Blobs[len(w.Blobs)-1].details = details
}

func (w *SegmentWriter) Encode() []byte {
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
	rows := make([]byte, 0, len(w.Rows)*rowSize)
	for bi, b := range w.Blobs {
		raw = raw[:0]
		for r := b.first; r < b.first+b.n; r++ {
			row := w.Rows[r]
			var rec [rowSize]byte
			le := binary.LittleEndian
			le.PutUint32(rec[0:], uint32(blobIdx[bi]))
			le.PutUint32(rec[4:], uint32(int32(row.Parent)))
			rec[8] = kinds.id(row.Kind)
			rec[9] = langs.id(row.Language)
			if row.SyntaxError {
				rec[10] |= flagSyntaxError
			}
			if row.Indexed {
				rec[10] |= flagIndexed
			}
			le.PutUint32(rec[12:], uint32(row.StartLine))
			le.PutUint32(rec[16:], uint32(row.EndLine))
			le.PutUint32(rec[20:], uint32(row.StartByte))
			le.PutUint32(rec[24:], uint32(row.EndByte))
			name := Clip(row.Name, 1<<16-1)
			le.PutUint32(rec[28:], uint32(names.Len()))
			le.PutUint16(rec[32:], uint16(len(name)))
			names.WriteString(name)
			copy(rec[36:52], row.Hash[:])
			rows = append(rows, rec[:]...)
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
	var dict bytes.Buffer
	kinds.write(&dict)
	langs.write(&dict)

	out := make([]byte, headerSize, headerSize+dict.Len()+len(sorted)*blobSize+len(rows)+names.Len()+details.Len())
	copy(out, segMagic)
	binary.LittleEndian.PutUint32(out[8:], uint32(len(sorted)))
	binary.LittleEndian.PutUint32(out[12:], uint32(len(w.Rows)))
	binary.LittleEndian.PutUint32(out[16:], uint32(dict.Len()))
	binary.LittleEndian.PutUint32(out[20:], uint32(names.Len()))
	binary.LittleEndian.PutUint32(out[24:], uint32(details.Len()))
	out = append(out, dict.Bytes()...)
	for _, b := range sorted {
		var rec [blobSize]byte
		copy(rec[:20], b.sha[:])
		binary.LittleEndian.PutUint32(rec[20:], uint32(b.first))
		binary.LittleEndian.PutUint32(rec[24:], uint32(b.n))
		binary.LittleEndian.PutUint32(rec[28:], uint32(min(b.info.Size, 1<<32-1)))
		rec[32] = gitindex.SkipCode(b.info.Skip)
		binary.LittleEndian.PutUint16(rec[33:], uint16(min(b.info.SyntaxErrors, 1<<16-1)))
		if b.info.Fallback {
			rec[35] = 1
		}
		binary.LittleEndian.PutUint32(rec[36:], detailAt[b.originalIdx][0])
		binary.LittleEndian.PutUint32(rec[40:], detailAt[b.originalIdx][1])
		out = append(out, rec[:]...)
	}
	out = append(out, rows...)
	out = append(out, names.Bytes()...)
	out = append(out, details.Bytes()...)
	binary.LittleEndian.PutUint32(out[28:], crc32.Checksum(out[headerSize:], castagnoli))
	binary.LittleEndian.PutUint32(out[60:], crc32.Checksum(out[:60], castagnoli))
	return out
}

func Clip(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
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

// chunkTable is a memory-mapped chunks.bin.
type chunkTable struct {
	data         []byte
	Nblobs       int
	Nrows        int
	kinds, langs []string
	blobs, rows  []byte
	names        []byte
	details      []byte

	mu   sync.Mutex // guards last
	last struct {   // the most recently decompressed details
		blob int
		raw  []byte
	}
}

// openChunkTable maps a chunks.bin and verifies its checksums.
func OpenChunkTable(path string) (*chunkTable, error) { return mapChunkTable(path, true) }

// mapChunkTable maps a chunks.bin; without verify only the header's
// checksum is checked (the body's passed before, see stamps).
func mapChunkTable(path string, verify bool) (*chunkTable, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open segment %s: %w", path, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("open segment %s: %w", path, err)
	}
	if fi.Size() < headerSize {
		return nil, fmt.Errorf("open segment %s: %w: file too short", path, ErrCorrupt)
	}
	data, err := unix.Mmap(int(f.Fd()), 0, int(fi.Size()), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return nil, fmt.Errorf("map segment %s: %w", path, err)
	}
	t, err := parseChunkTableVerify(data, verify)
	if err != nil {
		unix.Munmap(data)
		return nil, fmt.Errorf("open segment %s: %w: %v", path, ErrCorrupt, err)
	}
	return t, nil
}

func ParseChunkTable(data []byte) (*chunkTable, error) { return parseChunkTableVerify(data, true) }

func parseChunkTableVerify(data []byte, verify bool) (*chunkTable, error) {
	if string(data[:8]) != segMagic {
		return nil, fmt.Errorf("bad magic")
	}
	le := binary.LittleEndian
	// Every byte is checked when the file is mapped: CRC-32C runs at
	// memory speed, and a flipped byte must never be served as a row.
	if crc32.Checksum(data[:60], castagnoli) != le.Uint32(data[60:]) {
		return nil, fmt.Errorf("header checksum mismatch")
	}
	if verify && crc32.Checksum(data[headerSize:], castagnoli) != le.Uint32(data[28:]) {
		return nil, fmt.Errorf("checksum mismatch")
	}
	t := &chunkTable{data: data, Nblobs: int(le.Uint32(data[8:])), Nrows: int(le.Uint32(data[12:]))}
	dictLen, namesLen, detailsLen := int(le.Uint32(data[16:])), int(le.Uint32(data[20:])), int(le.Uint32(data[24:]))
	want := headerSize + dictLen + t.Nblobs*blobSize + t.Nrows*rowSize + namesLen + detailsLen
	if want != len(data) {
		return nil, fmt.Errorf("size %d, header says %d", len(data), want)
	}
	d := data[headerSize : headerSize+dictLen]
	var err error
	if t.kinds, d, err = readDict(d); err != nil {
		return nil, err
	}
	if t.langs, _, err = readDict(d); err != nil {
		return nil, err
	}
	off := headerSize + dictLen
	t.blobs = data[off : off+t.Nblobs*blobSize]
	off += t.Nblobs * blobSize
	t.rows = data[off : off+t.Nrows*rowSize]
	off += t.Nrows * rowSize
	t.names = data[off : off+namesLen]
	t.details = data[off+namesLen:]
	t.last.blob = -1
	return t, nil
}

func readDict(d []byte) ([]string, []byte, error) {
	if len(d) < 2 {
		return nil, nil, fmt.Errorf("dictionary truncated")
	}
	n := int(binary.LittleEndian.Uint16(d))
	d = d[2:]
	names := make([]string, n)
	for i := range names {
		if len(d) < 1 || len(d) < 1+int(d[0]) {
			return nil, nil, fmt.Errorf("dictionary truncated")
		}
		names[i] = string(d[1 : 1+int(d[0])])
		d = d[1+int(d[0]):]
	}
	return names, d, nil
}

func (t *chunkTable) Close() error { return unix.Munmap(t.data) }

// findBlob returns the row range of a blob, by binary search of the table.
func (t *chunkTable) FindBlob(sha plumbing.Hash) (first, n int, ok bool) {
	i, ok := t.BlobIndex(sha)
	if !ok {
		return 0, 0, false
	}
	first, n = t.BlobRange(i)
	return first, n, true
}

// blobIndex finds a blob in the sorted table. SHAs are uniformly spread, so
// the first eight bytes, read as a number, predict the position; the search
// gallops from there and then bisects, comparing those eight bytes as one
// integer and the whole SHA only on a match.
func (t *chunkTable) BlobIndex(sha plumbing.Hash) (int, bool) {
	n := t.Nblobs
	if n == 0 {
		return 0, false
	}
	want := binary.BigEndian.Uint64(sha[:8])
	key := func(i int) uint64 { return binary.BigEndian.Uint64(t.blobs[i*blobSize:]) }
	// lo..hi brackets the first index whose key is >= want.
	guess, _ := bits.Mul64(want, uint64(n))
	lo, hi := int(guess), int(guess)+1
	for step := 1; lo > 0 && key(lo) >= want; step *= 2 {
		hi, lo = lo, max(0, lo-step)
	}
	if lo == 0 && key(0) >= want {
		hi = 0
	}
	for step := 1; hi < n && key(hi) < want; step *= 2 {
		lo, hi = hi, min(n, hi+step)
	}
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if key(m) < want {
			lo = m + 1
		} else {
			hi = m
		}
	}
	for i := hi; i < n && key(i) == want; i++ {
		if bytes.Equal(t.blobs[i*blobSize:i*blobSize+20], sha[:]) {
			return i, true
		}
	}
	return hi, false
}

// blobRange returns the rows of blob i of the table.
func (t *chunkTable) BlobRange(i int) (first, n int) {
	rec := t.blobs[i*blobSize:]
	return int(binary.LittleEndian.Uint32(rec[20:])), int(binary.LittleEndian.Uint32(rec[24:]))
}

// blobInfo returns what the table records about blob i.
func (t *chunkTable) BlobInfo(i int) BlobInfo {
	rec := t.blobs[i*blobSize:]
	info := BlobInfo{Size: int64(binary.LittleEndian.Uint32(rec[28:])),
		SyntaxErrors: int(binary.LittleEndian.Uint16(rec[33:])), Fallback: rec[35]&1 != 0}
	if code := int(rec[32]); code < len(gitindex.SkipCodes) {
		info.Skip = gitindex.SkipCodes[code]
	}
	return info
}

func (t *chunkTable) BlobSHA(i int) plumbing.Hash {
	var h plumbing.Hash
	copy(h[:], t.blobs[i*blobSize:i*blobSize+20])
	return h
}

func (t *chunkTable) Row(i int) Row {
	rec := t.rows[i*rowSize : (i+1)*rowSize]
	le := binary.LittleEndian
	r := Row{
		Blob:        int(le.Uint32(rec[0:])),
		Parent:      int(int32(le.Uint32(rec[4:]))),
		SyntaxError: rec[10]&flagSyntaxError != 0,
		Indexed:     rec[10]&flagIndexed != 0,
		StartLine:   int(le.Uint32(rec[12:])),
		EndLine:     int(le.Uint32(rec[16:])),
		StartByte:   int(le.Uint32(rec[20:])),
		EndByte:     int(le.Uint32(rec[24:])),
	}
	if int(rec[8]) < len(t.kinds) {
		r.Kind = t.kinds[rec[8]]
	}
	if int(rec[9]) < len(t.langs) {
		r.Language = t.langs[rec[9]]
	}
	r.Name = string(t.nameBytes(i))
	copy(r.Hash[:], rec[36:52])
	return r
}

func (t *chunkTable) rowHash(i int) (h [16]byte, indexed bool) {
	rec := t.rows[i*rowSize : (i+1)*rowSize]
	copy(h[:], rec[36:52])
	return h, rec[10]&flagIndexed != 0
}

// rowDetail is row with the signature and metadata, which it decompresses
// from the blob's details (a corrupt frame leaves them empty).
func (t *chunkTable) RowDetail(i int) Row {
	r := t.Row(i)
	first, _ := t.BlobRange(r.Blob)
	raw, err := t.blobDetails(r.Blob)
	if err != nil {
		return r
	}
	d := Decoder{Buf: raw}
	for k := first; k <= i; k++ {
		sig, meta := d.Bytes(int(d.Uint())), d.Bytes(int(d.Uint()))
		if k == i && d.Err == nil {
			r.Signature, r.MetaBytes = string(sig), meta
		}
	}
	return r
}

// chunks rebuilds the chunks of one blob from its n rows starting at first
// (see Segment.Chunks).
func (t *chunkTable) chunks(first, n int) ([]chunk.Chunk, error) {
	b := t.Row(first).Blob
	raw, err := t.blobDetails(b)
	if err != nil {
		return nil, err
	}
	d := Decoder{Buf: raw}
	out := make([]chunk.Chunk, n)
	for k := range n {
		r := t.Row(first + k)
		sig, meta := d.Bytes(int(d.Uint())), d.Bytes(int(d.Uint()))
		if d.Err != nil || r.Blob != b {
			return nil, fmt.Errorf("rows %d..%d: corrupt details of blob %d", first, first+n, b)
		}
		var m Meta
		md := Decoder{Buf: meta}
		m.decode(&md)
		if md.Err != nil {
			return nil, fmt.Errorf("row %d: corrupt metadata", first+k)
		}
		parent := -1
		if r.Parent >= 0 {
			parent = r.Parent - first
		}
		out[k] = chunk.Chunk{Kind: r.Kind, Name: r.Name, Parent: parent, Signature: string(sig), Doc: m.Doc,
			StartLine: r.StartLine, EndLine: r.EndLine, StartByte: r.StartByte, EndByte: r.EndByte, SyntaxError: r.SyntaxError,
			QualifiedName: m.QualifiedName, Access: m.Access, Decorators: m.Decorators, Imports: m.Imports, ErrorDetail: m.ErrorDetail}
	}
	return out, nil
}

// blobDetails returns the decompressed details of blob i. The result must
// not be modified.
func (t *chunkTable) blobDetails(i int) ([]byte, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.last.blob == i {
		return t.last.raw, nil
	}
	frame, err := t.DetailFrame(i)
	if err != nil {
		return nil, err
	}
	raw, err := detailCodec.decoder().DecodeAll(frame, nil)
	if err != nil {
		return nil, fmt.Errorf("%w: blob %d details: %v", ErrCorrupt, i, err)
	}
	t.last.blob, t.last.raw = i, raw
	return raw, nil
}

// detailFrame returns blob i's compressed details.
func (t *chunkTable) DetailFrame(i int) ([]byte, error) {
	rec := t.blobs[i*blobSize:]
	off, n := binary.LittleEndian.Uint32(rec[36:]), binary.LittleEndian.Uint32(rec[40:])
	if uint64(off)+uint64(n) > uint64(len(t.details)) {
		return nil, fmt.Errorf("%w: blob %d details out of range", ErrCorrupt, i)
	}
	return t.details[off : off+n : off+n], nil
}

// name returns just the row's name, without decoding the rest.
func (t *chunkTable) name(i int) string { return string(t.nameBytes(i)) }

// nameBytes is name without a copy.
func (t *chunkTable) nameBytes(i int) []byte {
	rec := t.rows[i*rowSize : (i+1)*rowSize]
	off, n := binary.LittleEndian.Uint32(rec[28:]), binary.LittleEndian.Uint16(rec[32:])
	if uint64(off)+uint64(n) > uint64(len(t.names)) {
		return nil
	}
	return t.names[off : int(off)+int(n)]
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

func SegmentFile(dir, id, name string) string { return filepath.Join(dir, "segments", id, name) }
