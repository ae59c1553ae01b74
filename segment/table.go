package segment

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/bits"
	"os"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/checksum"
	"github.com/bcindex/bcindex/internal/mmap"
)

// Table is a memory-mapped chunks.bin.
type Table struct {
	data         []byte
	Nblobs       int
	Nrows        int
	Nunits       int // distinct units the rows refer to
	kinds, langs []string
	hashes       []byte // nunits × 16
	copies       []byte // nunits × u32
	refs         []byte // nrows × u32
	rows, units  []byte
	wide, spans  []byte
	unames       []byte // nunits × 8
	blobs        []byte
	frames       []byte
	names        []byte
	details      []byte

	mu     sync.Mutex  // guards recent and next
	recent [4]struct { // the most recently decompressed frames of details
		frame int
		d     *unitFrame
	}
	next int
}

// OpenTable maps a chunks.bin and verifies its checksums.
func OpenTable(path string) (*Table, error) { return mapTable(path, true) }

// mapTable maps a chunks.bin; without verify only the header's
// checksum is checked (the body's passed before, see stamps).
func mapTable(path string, verify bool) (*Table, error) {
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
	data, err := mmap.Map(f, 0, int(fi.Size()))
	if err != nil {
		return nil, fmt.Errorf("map segment %s: %w", path, err)
	}
	t, err := parseTableVerify(data, verify)
	if err != nil {
		mmap.Unmap(data)
		return nil, fmt.Errorf("open segment %s: %w: %v", path, ErrCorrupt, err)
	}
	return t, nil
}

func ParseTable(data []byte) (*Table, error) { return parseTableVerify(data, true) }

func parseTableVerify(data []byte, verify bool) (*Table, error) {
	if len(data) < headerSize {
		return nil, fmt.Errorf("file too short")
	}
	if string(data[:8]) != segMagic {
		return nil, fmt.Errorf("bad magic")
	}
	le := binary.LittleEndian
	// Every byte is checked when the file is mapped: CRC-32C runs at
	// memory speed, and a flipped byte must never be served as a row.
	if checksum.Sum(data[:60]) != le.Uint32(data[60:]) {
		return nil, fmt.Errorf("header checksum mismatch")
	}
	if verify && checksum.Sum(data[headerSize:]) != le.Uint32(data[28:]) {
		return nil, fmt.Errorf("checksum mismatch")
	}
	t := &Table{data: data, Nblobs: int(le.Uint32(data[8:])), Nrows: int(le.Uint32(data[12:])), Nunits: int(le.Uint32(data[32:]))}
	nwide, nspans := uint64(le.Uint32(data[36:])), uint64(le.Uint32(data[40:]))
	if t.Nrows >= selfCopy {
		return nil, fmt.Errorf("%d rows, more than the copies column numbers", t.Nrows)
	}
	dictLen, namesLen, detailsLen := int(le.Uint32(data[16:])), int(le.Uint32(data[20:])), int(le.Uint32(data[24:]))
	nframes := (t.Nunits + unitsPerFrame - 1) / unitsPerFrame
	want := uint64(headerSize) + uint64(t.Nunits)*(hashSize+copySize+unitSize+unameSize) + uint64(t.Nrows)*(refSize+rowSize) +
		nwide*wideSize + nspans*spanSize + uint64(t.Nblobs)*blobSize + uint64(nframes)*frameSize + uint64(dictLen) + uint64(namesLen) + uint64(detailsLen)
	if want != uint64(len(data)) {
		return nil, fmt.Errorf("size %d, header says %d", len(data), want)
	}
	off := headerSize
	section := func(n int) []byte {
		b := data[off : off+n : off+n]
		off += n
		return b
	}
	t.hashes = section(t.Nunits * hashSize)
	t.copies = section(t.Nunits * copySize)
	t.refs = section(t.Nrows * refSize)
	t.rows = section(t.Nrows * rowSize)
	t.wide = section(int(nwide) * wideSize)
	t.spans = section(int(nspans) * spanSize)
	t.units = section(t.Nunits * unitSize)
	t.unames = section(t.Nunits * unameSize)
	t.blobs = section(t.Nblobs * blobSize)
	t.frames = section(nframes * frameSize)
	d := section(dictLen)
	t.names = section(namesLen)
	t.details = section(detailsLen)
	var err error
	if t.kinds, d, err = readDict(d); err != nil {
		return nil, err
	}
	if t.langs, _, err = readDict(d); err != nil {
		return nil, err
	}
	if verify {
		// The checksum passed, so the writer wrote these; a check of the
		// references keeps a wrong writer from being served.
		for i := 0; i < t.Nrows; i++ {
			if u := le.Uint32(t.refs[i*refSize:]); int(u) >= t.Nunits {
				return nil, fmt.Errorf("row %d refers to unit %d of %d", i, u, t.Nunits)
			}
		}
		if err := t.checkPlaces(); err != nil {
			return nil, err
		}
	}
	for i := range t.recent {
		t.recent[i].frame = -1
	}
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

func (t *Table) Close() error { return mmap.Unmap(t.data) }

// FindBlob returns the row range of a blob, by binary search of the table.
func (t *Table) FindBlob(sha plumbing.Hash) (first, n int, ok bool) {
	i, ok := t.BlobIndex(sha)
	if !ok {
		return 0, 0, false
	}
	first, n = t.BlobRange(i)
	return first, n, true
}

// BlobIndex finds a blob in the sorted table. SHAs are uniformly spread, so
// the first eight bytes, read as a number, predict the position; the search
// gallops from there and then bisects, comparing those eight bytes as one
// integer and the whole SHA only on a match.
func (t *Table) BlobIndex(sha plumbing.Hash) (int, bool) {
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

// BlobKey returns the SHA of blob i of the table, in the table's mapped
// bytes: the blobs are in ascending order of SHA.
func (t *Table) BlobKey(i int) []byte { return t.blobs[i*blobSize : i*blobSize+20 : i*blobSize+20] }

// BlobRange returns the rows of blob i of the table.
func (t *Table) BlobRange(i int) (first, n int) {
	rec := t.blobs[i*blobSize:]
	return int(binary.LittleEndian.Uint32(rec[20:])), int(binary.LittleEndian.Uint32(rec[24:]))
}

// BlobInfo returns what the table records about blob i.
func (t *Table) BlobInfo(i int) BlobInfo {
	rec := t.blobs[i*blobSize:]
	info := BlobInfo{Size: int64(binary.LittleEndian.Uint32(rec[28:])),
		SyntaxErrors: int(binary.LittleEndian.Uint16(rec[33:])), Fallback: rec[35]&1 != 0}
	if code := int(rec[32]); code < len(gitindex.SkipCodes) {
		info.Skip = gitindex.SkipCodes[code]
	}
	return info
}

func (t *Table) BlobSHA(i int) plumbing.Hash {
	var h plumbing.Hash
	copy(h[:], t.blobs[i*blobSize:i*blobSize+20])
	return h
}

func (t *Table) Row(i int) Row {
	rec := t.rows[i*rowSize : (i+1)*rowSize]
	le := binary.LittleEndian
	u := t.unitRec(t.unitOf(i))
	startByte := le.Uint32(rec[0:])
	start, parent := t.place(i, rec)
	r := Row{
		Blob:        t.blobOfRow(i),
		Parent:      parent,
		SyntaxError: u[2]&flagSyntaxError != 0,
		Indexed:     t.indexed(i),
		StartLine:   int(start),
		EndLine:     int(start + le.Uint32(u[4:])),
		StartByte:   int(startByte),
		EndByte:     int(startByte + le.Uint32(u[8:])),
	}
	if int(u[0]) < len(t.kinds) {
		r.Kind = t.kinds[u[0]]
	}
	if int(u[1]) < len(t.langs) {
		r.Language = t.langs[u[1]]
	}
	r.Name = string(t.nameBytes(i))
	r.Hash, _ = t.rowHash(i)
	return r
}

// RowDetail is row with the signature and metadata, which it decompresses
// from its unit's frame of details (a corrupt frame leaves them empty).
func (t *Table) RowDetail(i int) Row {
	r := t.Row(i)
	u := t.unitOf(i)
	f, err := t.frame(u / unitsPerFrame)
	if err == nil && u < t.Nunits {
		k := u % unitsPerFrame
		r.Signature, r.MetaBytes = f.sigs[k], f.metas[k]
	}
	return r
}

// Details decodes the n rows of one blob starting at first with their
// signatures and metadata, checking that their details are whole.
func (t *Table) Details(first, n int) ([]Row, error) {
	if n == 0 {
		return []Row{}, nil
	}
	b := t.Row(first).Blob
	out := make([]Row, n)
	for k := range n {
		r := t.Row(first + k)
		u := t.unitOf(first + k)
		if r.Blob != b || u >= t.Nunits {
			return nil, fmt.Errorf("rows %d..%d: corrupt rows of blob %d", first, first+n, b)
		}
		f, err := t.frame(u / unitsPerFrame)
		if err != nil {
			return nil, err
		}
		sig, meta := f.sigs[u%unitsPerFrame], f.metas[u%unitsPerFrame]
		var m Meta
		md := Decoder{Buf: meta}
		if len(meta) > 0 { // none is empty Meta, as Row.Meta reads it
			m.Decode(&md)
		}
		if md.Err != nil {
			return nil, fmt.Errorf("row %d: corrupt metadata", first+k)
		}
		r.Signature, r.MetaBytes = sig, meta
		out[k] = r
	}
	return out, nil
}

// name returns just the row's name, without decoding the rest.
func (t *Table) name(i int) string { return string(t.nameBytes(i)) }

// nameBytes is name without a copy.
func (t *Table) nameBytes(i int) []byte {
	u := t.unitOf(i)
	if u >= t.Nunits {
		return nil
	}
	rec := t.unames[u*unameSize:]
	off, n := binary.LittleEndian.Uint32(rec), binary.LittleEndian.Uint16(rec[4:])
	if uint64(off)+uint64(n) > uint64(len(t.names)) {
		return nil
	}
	return t.names[off : int(off)+int(n)]
}
