package ngram

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/bcindex/bcindex/internal/checksum"
)

const (
	magic      = "BCGRAM05"
	magicV4    = "BCGRAM04" // postings of a gap per document: still read
	magicV3    = "BCGRAM03" // and no pieces: still read
	magicV2    = "BCGRAM02" // 12-byte trigram entries: still read
	magicV1    = "BCGRAM01" // and binary blobs without documents: still read
	headerSize = 64
	entrySize  = 8
	wideEntry  = 12 // an entry of the first two versions
	// maxPostings bounds a file's postings bytes: an entry keeps the
	// offset of its list in 40 bits.
	maxPostings = 1 << 40
	// sentinelGram is the trigram of the entry after the last.
	sentinelGram = 0xffffff
	// NoDoc marks a blob without trigrams in a segment's blob→document map.
	NoDoc = 1<<32 - 1
	// BinaryDoc marks a binary blob without trigrams there (files of the
	// first version).
	BinaryDoc = 1<<32 - 2
	// binaryBit marks the document of a binary blob there: exact search
	// matches it only where git grep matches binary files, and its
	// trigrams rule it out as any other's.
	binaryBit = 1 << 31
	// pieceBit marks, in the document→blob map, a document that is a
	// piece of its blob (see Pieces).
	pieceBit = 1 << 31
)

// Writer accumulates the trigram sets of one segment's blobs. Use NewWriter,
// Add (or Append) per blob, then Encode.
type Writer struct {
	shas   [][20]byte
	binary [][20]byte // binary blobs without trigrams
	isBin  []bool     // per document: a binary blob's
	piece  []bool     // per document: a piece of the blob of the one before
	lists  []list
	// ascii finds the list of a trigram of three ASCII bytes (index+1, 0
	// for none) without hashing: nearly every trigram of source code is
	// one. Others go through the map.
	ascii []int32
	other map[uint32]int32
}

type list struct {
	gram uint32
	last int32
	buf  []byte
}

// NewWriter returns an empty writer.
func NewWriter() *Writer { return &Writer{other: map[uint32]int32{}} }

// Docs is the number of documents added.
func (w *Writer) Docs() int { return len(w.shas) }

func asciiSlot(g uint32) (int, bool) {
	if g&0x808080 != 0 {
		return 0, false
	}
	return int(g>>16)<<14 | int(g>>8&0x7f)<<7 | int(g&0x7f), true
}

// listFor returns the list of trigram g, creating it.
func (w *Writer) listFor(g uint32) *list {
	if s, ok := asciiSlot(g); ok {
		if w.ascii == nil {
			w.ascii = make([]int32, 1<<21)
		}
		if i := w.ascii[s]; i > 0 {
			return &w.lists[i-1]
		}
		w.lists = append(w.lists, list{gram: g, last: -1})
		w.ascii[s] = int32(len(w.lists))
		return &w.lists[len(w.lists)-1]
	}
	if i, ok := w.other[g]; ok {
		return &w.lists[i]
	}
	w.lists = append(w.lists, list{gram: g, last: -1})
	w.other[g] = int32(len(w.lists) - 1)
	return &w.lists[len(w.lists)-1]
}

func (l *list) add(doc int32) {
	l.buf = binary.AppendUvarint(l.buf, uint64(doc-l.last-1))
	l.last = doc
}

// Add adds a blob with its sorted, distinct trigrams (exact.Trigrams) as
// the next document; binary marks a binary blob, which git grep -I passes
// over and git grep matches whole, and of whose trigrams only those of
// text bytes are kept (TextTrigram).
func (w *Writer) Add(sha [20]byte, grams []uint32, binary bool) {
	doc := int32(len(w.shas))
	w.shas = append(w.shas, sha)
	w.isBin = append(w.isBin, binary)
	w.piece = append(w.piece, false)
	for _, g := range grams {
		if !binary || TextTrigram(g) {
			w.listFor(g).add(doc)
		}
	}
}

// AddPieces adds the trigrams of the pieces of the text blob sha, the
// last one added (Pieces), as the documents after it.
func (w *Writer) AddPieces(sha [20]byte, pieces [][]uint32) error {
	if n := len(w.shas); n == 0 || w.shas[n-1] != sha || w.isBin[n-1] || w.piece[n-1] {
		return fmt.Errorf("ngram: pieces of blob %x, not the last text blob added", sha)
	}
	for _, grams := range pieces {
		doc := int32(len(w.shas))
		w.shas = append(w.shas, sha)
		w.isBin = append(w.isBin, false)
		w.piece = append(w.piece, true)
		for _, g := range grams {
			w.listFor(g).add(doc)
		}
	}
	return nil
}

// AddBinary records a binary blob whose trigrams are not known: exact
// search reads it whenever it matches binary files.
func (w *Writer) AddBinary(sha [20]byte) { w.binary = append(w.binary, sha) }

// Append copies the documents of src whose blob keep accepts (nil keeps
// all), in src's order, after the documents already added. shaOf names
// the blob of a src document (by its blob index in src's segment).
func (w *Writer) Append(src *Index, shaOf func(blob int) [20]byte, keep func([20]byte) bool) error {
	for b := 0; b < src.blobs; b++ {
		if _, hasDoc := src.BlobDoc(b); src.IsBinary(b) && !hasDoc {
			if sha := shaOf(b); keep == nil || keep(sha) {
				w.binary = append(w.binary, sha)
			}
		}
	}
	docMap := make([]int32, src.docs)
	for d := range docMap {
		b, err := src.DocBlob(d)
		if err != nil {
			return err
		}
		sha := shaOf(b)
		if keep != nil && !keep(sha) {
			docMap[d] = -1
			continue
		}
		docMap[d] = int32(len(w.shas))
		w.shas = append(w.shas, sha)
		w.isBin = append(w.isBin, src.IsBinary(b))
		w.piece = append(w.piece, src.isPiece(d))
	}
	var docs []uint32
	for i := 0; i < src.grams; i++ {
		g, err := src.gramAt(i)
		if err != nil {
			return err
		}
		docs, err = src.appendList(docs[:0], i)
		if err != nil {
			return err
		}
		var l *list
		for _, d := range docs {
			if m := docMap[d]; m >= 0 {
				if l == nil {
					l = w.listFor(g)
				}
				l.add(m)
			}
		}
	}
	return nil
}

// Encode returns the file for a segment whose chunk table lists nblobs
// blobs; blobIndex gives a document's blob index in it. Documents are
// numbered anew (docOrder) and their postings written as runs.
func (w *Writer) Encode(nblobs int, blobIndex func(sha [20]byte) (int, bool)) ([]byte, error) {
	newDoc := w.docOrder()
	order := make([]int32, len(w.lists))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return int(w.lists[a].gram) - int(w.lists[b].gram) })
	var post []byte
	ends := make([]uint64, len(order))
	var scratch []uint32
	for k, i := range order {
		scratch = w.lists[i].renumber(scratch, newDoc)
		post = appendRuns(post, scratch)
		ends[k] = uint64(len(post))
	}
	if len(post) >= maxPostings {
		return nil, fmt.Errorf("ngram: %d bytes of postings, more than a file holds", len(post))
	}
	size := headerSize + 4*len(w.shas) + 4*nblobs + entrySize*(len(w.lists)+1) + len(post)
	out := make([]byte, headerSize, size)
	blobDoc := make([]uint32, nblobs)
	for i := range blobDoc {
		blobDoc[i] = NoDoc
	}
	docBlob := make([]uint32, len(w.shas))
	for d, sha := range w.shas {
		b, ok := blobIndex(sha)
		if !ok || b >= nblobs {
			return nil, fmt.Errorf("ngram: document %d names blob %x, not in the segment", d, sha)
		}
		nd := newDoc[d]
		if w.piece[d] {
			docBlob[nd] = uint32(b) | pieceBit
			continue
		}
		docBlob[nd] = uint32(b)
		blobDoc[b] = nd
		if w.isBin[d] {
			blobDoc[b] |= binaryBit
		}
	}
	for _, sha := range w.binary {
		if b, ok := blobIndex(sha); ok && b < nblobs && blobDoc[b] == NoDoc {
			blobDoc[b] = BinaryDoc
		}
	}
	for _, b := range docBlob {
		out = binary.LittleEndian.AppendUint32(out, b)
	}
	for _, d := range blobDoc {
		out = binary.LittleEndian.AppendUint32(out, d)
	}
	off := uint64(0)
	for k, i := range order {
		out = binary.LittleEndian.AppendUint64(out, off<<24|uint64(w.lists[i].gram))
		off = ends[k]
	}
	out = binary.LittleEndian.AppendUint64(out, off<<24|sentinelGram)
	out = append(out, post...)
	h := out[:headerSize]
	copy(h, magic)
	binary.LittleEndian.PutUint32(h[8:], uint32(len(w.shas)))
	binary.LittleEndian.PutUint32(h[12:], uint32(nblobs))
	binary.LittleEndian.PutUint32(h[16:], uint32(len(w.lists)))
	binary.LittleEndian.PutUint64(h[24:], off)
	binary.LittleEndian.PutUint32(h[32:], checksum.Sum(out[headerSize:]))
	binary.LittleEndian.PutUint32(h[60:], checksum.Sum(h[:60]))
	return out, nil
}
