package ngram

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sort"
	"sync"

	"github.com/bits-and-blooms/bitset"

	"github.com/bcindex/bcindex/internal/checksum"
	"github.com/bcindex/bcindex/internal/mmap"
)

// ErrCorrupt is wrapped by every error about a malformed trigram file.
var ErrCorrupt = errors.New("corrupt trigram index")

// Index is an open trigram file of one segment. It is safe for concurrent
// use.
type Index struct {
	binOnce  sync.Once
	binDocs  *bitset.BitSet // the binary blobs' documents
	pcOnce   sync.Once
	pieced   []pieceRun // the blobs indexed in pieces too
	path     string
	data     []byte
	unmap    func() error
	docs     int
	blobs    int
	grams    int
	docBlob  []byte
	blobDoc  []byte
	entries  []byte
	wide     bool // 12-byte entries (BCGRAM01, BCGRAM02)
	gaps     bool // postings of a gap per document (before BCGRAM05)
	post     []byte
	checksum uint32
}

// Open maps the trigram file at path and checks its header and sizes.
func Open(path string) (*Index, error) {
	data, unmap, err := mmap.File(path)
	if err != nil {
		return nil, fmt.Errorf("ngram: %w", err)
	}
	ix, err := Parse(data)
	if err != nil {
		unmap()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	ix.path, ix.unmap = path, unmap
	return ix, nil
}

func corrupt(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrCorrupt, fmt.Sprintf(format, args...))
}

// Parse reads a trigram file held in memory.
func Parse(data []byte) (*Index, error) {
	if len(data) < headerSize {
		return nil, corrupt("%d bytes, shorter than the header", len(data))
	}
	h := data[:headerSize]
	esize, gaps := entrySize, true
	switch string(h[:8]) {
	case magic:
		gaps = false
	case magicV4, magicV3:
	case magicV2, magicV1:
		esize = wideEntry
	default:
		return nil, corrupt("bad magic %q", h[:8])
	}
	if checksum.Sum(h[:60]) != binary.LittleEndian.Uint32(h[60:]) {
		return nil, corrupt("header checksum mismatch")
	}
	ix := &Index{
		data:     data,
		docs:     int(binary.LittleEndian.Uint32(h[8:])),
		blobs:    int(binary.LittleEndian.Uint32(h[12:])),
		grams:    int(binary.LittleEndian.Uint32(h[16:])),
		checksum: binary.LittleEndian.Uint32(h[32:]),
		wide:     esize == wideEntry,
		gaps:     gaps,
	}
	postLen := binary.LittleEndian.Uint64(h[24:])
	want := uint64(headerSize) + 4*uint64(ix.docs) + 4*uint64(ix.blobs) + uint64(esize)*(uint64(ix.grams)+1) + postLen
	if want != uint64(len(data)) {
		return nil, corrupt("sizes add up to %d bytes, file has %d", want, len(data))
	}
	p := data[headerSize:]
	ix.docBlob, p = p[:4*ix.docs], p[4*ix.docs:]
	ix.blobDoc, p = p[:4*ix.blobs], p[4*ix.blobs:]
	ix.entries, p = p[:esize*(ix.grams+1)], p[esize*(ix.grams+1):]
	ix.post = p
	if end := ix.offset(ix.grams); end != postLen {
		return nil, corrupt("last postings end at %d, not %d", end, postLen)
	}
	return ix, nil
}

// Close unmaps the file.
func (ix *Index) Close() error {
	if ix.unmap == nil {
		return nil
	}
	err := ix.unmap()
	ix.unmap = nil
	return err
}

// Docs is the number of documents (blobs with trigrams).
func (ix *Index) Docs() int { return ix.docs }

// Grams is the number of distinct trigrams.
func (ix *Index) Grams() int { return ix.grams }

// DocBlob is document d's blob index in the segment's chunk table.
func (ix *Index) DocBlob(d int) (int, error) {
	if d < 0 || d >= ix.docs {
		return 0, corrupt("document %d of %d", d, ix.docs)
	}
	b := int(binary.LittleEndian.Uint32(ix.docBlob[4*d:]) &^ pieceBit)
	if b >= ix.blobs {
		return 0, corrupt("document %d names blob %d of %d", d, b, ix.blobs)
	}
	return b, nil
}

// BlobDoc is the document of the segment's blob b, or false when the blob
// has no trigrams here.
func (ix *Index) BlobDoc(b int) (int, bool) {
	if b < 0 || b >= ix.blobs {
		return 0, false
	}
	d := binary.LittleEndian.Uint32(ix.blobDoc[4*b:])
	if d == NoDoc || d == BinaryDoc {
		return 0, false
	}
	if d &^= binaryBit; int(d) >= ix.docs {
		return 0, false
	}
	return int(d), true
}

// isPiece reports whether document d is a piece of its blob (Pieces).
func (ix *Index) isPiece(d int) bool {
	return d >= 0 && d < ix.docs && binary.LittleEndian.Uint32(ix.docBlob[4*d:])&pieceBit != 0
}

// binaryDocs returns the set of the binary blobs' documents, read once.
func (ix *Index) binaryDocs() *bitset.BitSet {
	ix.binOnce.Do(func() {
		ix.binDocs = bitset.New(uint(ix.docs))
		for b := 0; b < ix.blobs; b++ {
			if d, ok := ix.BlobDoc(b); ok && ix.IsBinary(b) {
				ix.binDocs.Set(uint(d))
			}
		}
	})
	return ix.binDocs
}

// IsBinary reports whether the segment's blob b is binary, with trigrams
// (BlobDoc finds its document) or without.
func (ix *Index) IsBinary(b int) bool {
	if b < 0 || b >= ix.blobs {
		return false
	}
	d := binary.LittleEndian.Uint32(ix.blobDoc[4*b:])
	return d == BinaryDoc || d != NoDoc && d&binaryBit != 0
}

func (ix *Index) gramAt(i int) (uint32, error) {
	if i < 0 || i >= ix.grams {
		return 0, corrupt("trigram entry %d of %d", i, ix.grams)
	}
	return ix.gram(i), nil
}

// gram is entry i's trigram: the low 24 bits of its 8 bytes, or the first
// 4 of a wide entry's 12.
func (ix *Index) gram(i int) uint32 {
	if ix.wide {
		return binary.LittleEndian.Uint32(ix.entries[wideEntry*i:])
	}
	return binary.LittleEndian.Uint32(ix.entries[entrySize*i:]) & 0xffffff
}

// offset is where entry i's postings start: the high 40 bits of its 8
// bytes, or the last 8 of a wide entry's 12.
func (ix *Index) offset(i int) uint64 {
	if ix.wide {
		return binary.LittleEndian.Uint64(ix.entries[wideEntry*i+4:])
	}
	return binary.LittleEndian.Uint64(ix.entries[entrySize*i:]) >> 24
}

// find returns the entry of trigram g, or -1.
func (ix *Index) find(g uint32) int {
	i := sort.Search(ix.grams, func(i int) bool { return ix.gram(i) >= g })
	if i < ix.grams && ix.gram(i) == g {
		return i
	}
	return -1
}

// listBytes returns entry i's postings.
func (ix *Index) listBytes(i int) ([]byte, error) {
	lo, hi := ix.offset(i), ix.offset(i+1)
	if lo > hi || hi > uint64(len(ix.post)) {
		return nil, corrupt("postings of entry %d at %d..%d of %d bytes", i, lo, hi, len(ix.post))
	}
	return ix.post[lo:hi], nil
}

// appendList appends entry i's documents to dst.
func (ix *Index) appendList(dst []uint32, i int) ([]uint32, error) {
	b, err := ix.listBytes(i)
	if err != nil {
		return dst, err
	}
	ok := false
	if ix.gaps {
		dst, ok = decodeGaps(dst, b, ix.docs)
	} else {
		dst, ok = decodeRuns(dst, b, ix.docs)
	}
	if !ok {
		return dst, corrupt("postings of entry %d: bad or beyond document %d", i, ix.docs)
	}
	return dst, nil
}

// Lookup returns the documents holding trigram g, ascending.
func (ix *Index) Lookup(g uint32) ([]uint32, error) {
	i := ix.find(g)
	if i < 0 {
		return nil, nil
	}
	return ix.appendList(nil, i)
}

// VerifyChecksum checks the CRC-32C of everything after the header.
func (ix *Index) VerifyChecksum() error {
	if checksum.Sum(ix.data[headerSize:]) != ix.checksum {
		return corrupt("checksum mismatch")
	}
	return nil
}

// Verify checks the checksum and every structure: document and blob maps
// agree, trigrams ascend, every postings list decodes within bounds.
func (ix *Index) Verify() error {
	if err := ix.VerifyChecksum(); err != nil {
		return err
	}
	for d := 0; d < ix.docs; d++ {
		b, err := ix.DocBlob(d)
		if err != nil {
			return err
		}
		if ix.isPiece(d) {
			// A piece follows its blob's document or another piece of it.
			if prev, err := ix.DocBlob(d - 1); d == 0 || err != nil || prev != b || ix.IsBinary(b) {
				return corrupt("document %d is a piece of blob %d, not after it", d, b)
			}
			continue
		}
		if back, ok := ix.BlobDoc(b); !ok || back != d {
			return corrupt("document %d names blob %d, which names another", d, b)
		}
	}
	var docs []uint32
	prev := int64(-1)
	for i := 0; i < ix.grams; i++ {
		g, _ := ix.gramAt(i)
		if int64(g) <= prev || g > 0xffffff {
			return corrupt("trigram entry %d out of order", i)
		}
		prev = int64(g)
		var err error
		if docs, err = ix.appendList(docs[:0], i); err != nil {
			return err
		}
		if len(docs) == 0 {
			return corrupt("trigram entry %d has no documents", i)
		}
	}
	return nil
}
