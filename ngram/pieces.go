package ngram

import (
	"bytes"
	"sort"

	"github.com/bits-and-blooms/bitset"

	"github.com/bcindex/bcindex/exact"
)

// A large text blob holds nearly every trigram a query asks for somewhere
// in its bytes, so its document alone rules it out of almost no search,
// and each search reads it whole. Such a blob is also indexed in pieces:
// runs of whole lines of about PieceSize bytes, each a document of its own
// after the blob's. A plan marked Lines (exact.Query), whose matches lie
// within one line, holds in a blob only if it holds in one of its pieces;
// other plans (git grep --all-match's) read the blob's own document.
const (
	// PieceSize is the length a piece reaches before it ends at the next
	// line end.
	PieceSize = 64 << 10
	// PiecedSize is the smallest blob cut into pieces: four pieces'
	// worth. Files of 256 KiB–1 MiB (generated tables and API clients)
	// were most of the bytes a search of common trigrams decoded when
	// only files of 1 MiB or more were cut.
	PiecedSize = 4 * PieceSize
)

// Bounds returns where the pieces of a text blob's content end (each but
// the last just after a line end, the last at len(content)), or nil when
// the blob is not cut into pieces: smaller than PiecedSize, or without two
// pieces' worth of lines. The segment's copy of the blob's bytes is cut
// at the same ends (segment.StoreText), so that a search decodes only the
// pieces whose documents may hold a match.
func Bounds(content []byte) []int {
	if len(content) < PiecedSize {
		return nil
	}
	var ends []int
	for start := 0; start < len(content); {
		end := len(content)
		if start+PieceSize < len(content) {
			if i := bytes.IndexByte(content[start+PieceSize:], '\n'); i >= 0 {
				end = start + PieceSize + i + 1
			}
		}
		if start == 0 && end == len(content) {
			return nil // one long line
		}
		ends = append(ends, end)
		start = end
	}
	return ends
}

// Pieces returns the trigrams (exact.Trigrams) of each piece of a text
// blob's content, cut at ends (Bounds).
func Pieces(content []byte, ends []int) [][]uint32 {
	if ends == nil {
		return nil
	}
	out := make([][]uint32, 0, len(ends))
	start := 0
	for _, end := range ends {
		out = append(out, exact.Trigrams(content[start:end], nil))
		start = end
	}
	return out
}

// pieceRun is a blob's document and the range of its pieces' documents.
type pieceRun struct{ doc, lo, hi int }

// pieces returns the runs of the blobs indexed in pieces, found once.
func (ix *Index) pieces() []pieceRun {
	ix.pcOnce.Do(func() {
		for d := 0; d < ix.docs; d++ {
			if !ix.isPiece(d) {
				continue
			}
			if n := len(ix.pieced); n > 0 && ix.pieced[n-1].hi == d {
				ix.pieced[n-1].hi = d + 1
			} else if d > 0 {
				ix.pieced = append(ix.pieced, pieceRun{doc: d - 1, lo: d, hi: d + 1})
			}
		}
	})
	return ix.pieced
}

// PieceDocs returns the documents of blob b's pieces, lo to hi (hi
// excluded); lo == hi when the blob is not indexed in pieces.
func (ix *Index) PieceDocs(b int) (lo, hi int) {
	d, ok := ix.BlobDoc(b)
	if !ok {
		return 0, 0
	}
	runs := ix.pieces()
	i := sort.Search(len(runs), func(i int) bool { return runs[i].doc >= d })
	if i < len(runs) && runs[i].doc == d {
		return runs[i].lo, runs[i].hi
	}
	return 0, 0
}

// byPieces sets the document of each blob indexed in pieces in set when
// one of its pieces is there, and clears it otherwise.
func (ix *Index) byPieces(set *bitset.BitSet) {
	for _, r := range ix.pieces() {
		hit := false
		if next, ok := set.NextSet(uint(r.lo)); ok && next < uint(r.hi) {
			hit = true
		}
		set.SetTo(uint(r.doc), hit)
	}
}

// Union returns the sorted, distinct trigrams of all the pieces: a blob's
// own set but for the trigrams that span two pieces, which hold the '\n'
// ending the first and so are in no plan (exact reads a trigram holding
// '\n' as true). It spares reading the blob's bytes a second time.
func Union(pieces [][]uint32) []uint32 {
	seen := bitset.New(1 << 24)
	n := 0
	for _, p := range pieces {
		for _, g := range p {
			if !seen.Test(uint(g)) {
				seen.Set(uint(g))
				n++
			}
		}
	}
	out := make([]uint32, 0, n)
	for g, ok := seen.NextSet(0); ok; g, ok = seen.NextSet(g + 1) {
		out = append(out, uint32(g))
	}
	return out
}
