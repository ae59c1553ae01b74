package segment

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/pierrec/lz4/v4"

	"github.com/bcindex/bcindex/internal/checksum"
	"github.com/bcindex/bcindex/internal/mmap"
)

// ContentFile keeps the bytes of the segment's blobs (binary ones only
// when LZ4 shrinks them: see indexer's grams), so that exact search
// verifies a candidate with a fast decompression instead of inflating it
// out of git's pack (that was most of a search's time).
//
// content.bin layout (little endian):
//
//	header   64 B: magic "BCTEXT02", blobs u32 (the chunk table's), 0 u32,
//	         data bytes u64, at 24 the CRC-32C of everything after the
//	         header, 28..59 zero, at 60 the CRC-32C of bytes 0..59
//	data     the blobs' bytes back to back, each an LZ4 block (package
//	         github.com/pierrec/lz4/v4), or as they are when LZ4 saves
//	         less than an eighth; or, for a blob the trigram file indexes
//	         in pieces (ngram.Bounds), one such block per piece: pieces
//	         u32, then per piece its first byte's offset in the blob u32,
//	         the number of its first line u32 and its block's length u32,
//	         then the blocks back to back
//	index    blobs × 16 B in blob-table order: offset u64 of the blob's
//	         bytes in data, their stored length u32 (bit 31 set when they
//	         are pieces), the blob's length u32; a stored length equal to
//	         the blob's means stored as is, both 0 a blob without content
//	         here (binary, too large)
//
// The data comes before the index so that a writer streams it. A piece's
// block is as is when its length is the piece's. Files of the first
// version (BCTEXT01) have no pieces and are still read.
const ContentFile = "content.bin"

const (
	contentMagic     = "BCTEXT02"
	contentMagicV1   = "BCTEXT01" // no pieces
	contentEntrySize = 16
	// piecedBit marks, in an index entry's stored length, a blob stored
	// in pieces.
	piecedBit = 1 << 31
	// pieceEntrySize is a piece's entry in its blob's piece table.
	pieceEntrySize = 12
	// spillBytes is how much stored data a writer keeps in memory before
	// it moves it to a temporary file.
	spillBytes = 16 << 20
)

// Content is an open content file. It is safe for concurrent use.
type Content struct {
	data     []byte
	unmap    func() error
	blobs    int
	body     []byte // data, then index
	stores   []byte
	index    []byte
	checksum uint32
	v1       bool // BCTEXT01: no pieces
}

// OpenContent maps a content file and checks its header and sizes.
func OpenContent(path string) (*Content, error) {
	data, unmap, err := mmap.File(path)
	if err != nil {
		return nil, err
	}
	c, err := parseContent(data)
	if err != nil {
		unmap()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	c.unmap = unmap
	return c, nil
}

func parseContent(data []byte) (*Content, error) {
	if len(data) < 64 || string(data[:8]) != contentMagic && string(data[:8]) != contentMagicV1 {
		return nil, errors.New("not a content file")
	}
	h := data[:64]
	if checksum.Sum(h[:60]) != binary.LittleEndian.Uint32(h[60:]) {
		return nil, errors.New("header checksum mismatch")
	}
	c := &Content{data: data, blobs: int(binary.LittleEndian.Uint32(h[8:])), checksum: binary.LittleEndian.Uint32(h[24:]), v1: string(h[:8]) == contentMagicV1}
	n := binary.LittleEndian.Uint64(h[16:])
	if want := 64 + n + uint64(contentEntrySize)*uint64(c.blobs); want != uint64(len(data)) {
		return nil, fmt.Errorf("sizes add up to %d bytes, file has %d", want, len(data))
	}
	c.body = data[64:]
	c.stores, c.index = c.body[:n], c.body[n:]
	return c, nil
}

// Close unmaps the file.
func (c *Content) Close() error {
	if c == nil || c.unmap == nil {
		return nil
	}
	err := c.unmap()
	c.unmap = nil
	return err
}

// VerifyChecksum checks the CRC-32C of everything after the header.
func (c *Content) VerifyChecksum() error {
	if checksum.Sum(c.body) != c.checksum {
		return errors.New("checksum mismatch")
	}
	return nil
}

// stored returns blob b's stored bytes and length (nil bytes when it has
// none).
func (c *Content) stored(b int) (Stored, int, error) {
	if b < 0 || b >= c.blobs {
		return Stored{}, 0, fmt.Errorf("content: blob %d of %d", b, c.blobs)
	}
	p := c.index[contentEntrySize*b:]
	off, n, size := binary.LittleEndian.Uint64(p), uint64(binary.LittleEndian.Uint32(p[8:])), int(binary.LittleEndian.Uint32(p[12:]))
	pieced := n&piecedBit != 0 && !c.v1
	if pieced {
		n &^= piecedBit
	}
	if n == 0 {
		return Stored{}, 0, nil
	}
	if off > uint64(len(c.stores)) || n > uint64(len(c.stores))-off || !pieced && n > uint64(size) {
		return Stored{}, 0, fmt.Errorf("content: blob %d at %d+%d of %d bytes", b, off, n, len(c.stores))
	}
	return Stored{Bytes: c.stores[off : off+n], Pieced: pieced}, size, nil
}

// Has reports whether blob b's content is here.
func (c *Content) Has(b int) bool {
	s, _, err := c.stored(b)
	return err == nil && s.Bytes != nil
}

// Text returns a copy of blob b's content, in buf's memory when its
// capacity holds it; ok is false when it has none here. A stored text that
// does not decode is an error.
func (c *Content) Text(b int, buf []byte) ([]byte, bool, error) {
	out, _, ok, err := c.TextPieces(b, buf, nil)
	return out, ok, err
}

// TextPieces is Text that, for a blob stored in pieces, decodes only the
// pieces want accepts (by their index; nil: all) into their place in the
// blob's bytes and returns them: the other bytes of the result are left
// as buf held them. For a blob not stored in pieces, or with want nil, the
// whole blob is decoded and pieces is nil.
func (c *Content) TextPieces(b int, buf []byte, want func(k int) bool) (out []byte, pieces []Piece, ok bool, err error) {
	s, size, err := c.stored(b)
	if err != nil || s.Bytes == nil {
		return nil, nil, false, err
	}
	out = buf[:0]
	if cap(out) < size {
		out = make([]byte, size)
	}
	out = out[:size]
	if !s.Pieced {
		if err := decodeBlock(s.Bytes, out); err != nil {
			return nil, nil, false, fmt.Errorf("content: blob %d %w", b, err)
		}
		return out, nil, true, nil
	}
	t, err := readPieces(s.Bytes, size)
	if err != nil {
		return nil, nil, false, fmt.Errorf("content: blob %d: %w", b, err)
	}
	if want != nil {
		pieces = []Piece{} // none may be read: not nil, which says all was
	}
	for k := range t.n {
		if want != nil && !want(k) {
			continue
		}
		p, block := t.piece(k)
		if err := decodeBlock(block, out[p.Start:p.End]); err != nil {
			return nil, nil, false, fmt.Errorf("content: blob %d piece %d %w", b, k, err)
		}
		if want != nil {
			pieces = append(pieces, p)
		}
	}
	return out, pieces, true, nil
}

// Pieces returns the pieces blob b is stored in, nil when it is stored
// whole or not here.
func (c *Content) Pieces(b int) ([]Piece, error) {
	s, size, err := c.stored(b)
	if err != nil || !s.Pieced {
		return nil, err
	}
	t, err := readPieces(s.Bytes, size)
	if err != nil {
		return nil, fmt.Errorf("content: blob %d: %w", b, err)
	}
	out := make([]Piece, t.n)
	for k := range out {
		out[k], _ = t.piece(k)
	}
	return out, nil
}

// PieceCount returns how many pieces blob b is stored in, 0 when it is
// stored whole or not here (TextPieces checks the table).
func (c *Content) PieceCount(b int) int {
	s, _, err := c.stored(b)
	if err != nil || !s.Pieced || len(s.Bytes) < 4 {
		return 0
	}
	return int(binary.LittleEndian.Uint32(s.Bytes))
}

// decodeBlock decodes a block into out, which its decoded length fills.
func decodeBlock(block, out []byte) error {
	if len(block) == len(out) {
		copy(out, block)
		return nil
	}
	if n, err := lz4.UncompressBlock(block, out); err != nil || n != len(out) {
		return errors.New("does not decode")
	}
	return nil
}

// Piece is a run of whole lines of a blob stored as one block.
type Piece struct {
	Start, End int // its bytes in the blob
	Line       int // the number of its first line, from 1
}

// pieceTable is a blob's stored pieces, checked to lie within its bytes.
type pieceTable struct {
	n      int
	table  []byte // n entries
	blocks []byte
	offs   []int // where each piece's block starts in blocks, and the end
	size   int
}

// readPieces reads and checks the piece table of a blob of size bytes: the
// pieces start at 0 and ascend within the blob, their line numbers ascend
// from 1, and their blocks fill the rest of the stored bytes, none longer
// than its piece.
func readPieces(stored []byte, size int) (*pieceTable, error) {
	if len(stored) < 4 {
		return nil, errors.New("piece table cut short")
	}
	n := int(binary.LittleEndian.Uint32(stored))
	if n == 0 || n > (len(stored)-4)/pieceEntrySize {
		return nil, fmt.Errorf("%d pieces in %d bytes", n, len(stored))
	}
	t := &pieceTable{n: n, table: stored[4 : 4+pieceEntrySize*n], blocks: stored[4+pieceEntrySize*n:], offs: make([]int, n+1), size: size}
	prevStart, prevLine := -1, 0
	for k := range n {
		p := t.table[pieceEntrySize*k:]
		start, line, blen := int(binary.LittleEndian.Uint32(p)), int(binary.LittleEndian.Uint32(p[4:])), int(binary.LittleEndian.Uint32(p[8:]))
		end := size
		if k+1 < n {
			end = int(binary.LittleEndian.Uint32(t.table[pieceEntrySize*(k+1):]))
		}
		switch {
		case k == 0 && (start != 0 || line != 1), start <= prevStart, line <= prevLine, end <= start, end > size:
			return nil, fmt.Errorf("piece %d of %d at %d..%d, line %d, of a blob of %d bytes", k, n, start, end, line, size)
		case blen > end-start || blen == 0 || blen > len(t.blocks)-t.offs[k]:
			return nil, fmt.Errorf("piece %d of %d stored in %d bytes", k, n, blen)
		}
		t.offs[k+1] = t.offs[k] + blen
		prevStart, prevLine = start, line
	}
	if t.offs[n] != len(t.blocks) {
		return nil, fmt.Errorf("pieces stored in %d of %d bytes", t.offs[n], len(t.blocks))
	}
	return t, nil
}

// piece returns piece k and its block.
func (t *pieceTable) piece(k int) (Piece, []byte) {
	p := t.table[pieceEntrySize*k:]
	end := t.size
	if k+1 < t.n {
		end = int(binary.LittleEndian.Uint32(t.table[pieceEntrySize*(k+1):]))
	}
	return Piece{Start: int(binary.LittleEndian.Uint32(p)), End: end, Line: int(binary.LittleEndian.Uint32(p[4:]))}, t.blocks[t.offs[k]:t.offs[k+1]]
}

// Verify checks the checksum and every blob's text: within the file, and
// decoding to its length; a blob stored in pieces is cut after line ends
// and each piece's line number counts the lines before it.
func (c *Content) Verify() error {
	if err := c.VerifyChecksum(); err != nil {
		return err
	}
	var buf []byte
	for b := 0; b < c.blobs; b++ {
		text, ok, err := c.Text(b, buf)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		buf = text
		pieces, err := c.Pieces(b)
		if err != nil {
			return err
		}
		line := 1
		for k, p := range pieces {
			if p.Line != line || k+1 < len(pieces) && text[p.End-1] != '\n' {
				return fmt.Errorf("content: blob %d piece %d: line %d at byte %d, not after a line end of line %d", b, k, p.Line, p.Start, line-1)
			}
			line += bytes.Count(text[p.Start:p.End], []byte{'\n'})
		}
	}
	return nil
}
