package lexical

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bcindex/bcindex/internal/checksum"
)

const (
	magic      = "BCLEX"
	version    = 2
	headerSize = 64
	// blockEntrySize is the size of one block index entry: the first 8
	// bytes of the block's first term, uint64 postings offset, uint32
	// dictionary offset.
	blockEntrySize = 20
	// blockTerms is the number of terms per dictionary block that the Writer
	// uses (the file records it, so readers take any value from 1 to 255).
	// Front coding restarts at each block, and a lookup binary-searches the
	// block index and then scans one block, so a larger block makes the
	// dictionary and the block index smaller and lookups slower. On a large
	// index of source code, 8 makes the file 3% larger than 16; 32 makes it
	// 2% smaller but lookups about a third slower.
	blockTerms = 16
)

// Writer accumulates rows in memory and writes them as one postings file.
// It is not safe for concurrent use.
type Writer struct {
	ids     map[string]uint32 // term → index in terms
	terms   []termPostings
	docLens []uint32
	total   uint64
	maxLen  uint32
	err     error // first misuse of Add, reported by WriteFile

	// per-Add scratch: term frequency by term id, and the ids touched
	counts  []uint32
	touched []uint32
}

type termPostings struct {
	term string
	last int    // last row added
	df   uint32 // rows in buf
	buf  []byte // postings list in the file's encoding (appendPosting)
}

// NewWriter returns an empty Writer.
func NewWriter() *Writer {
	return &Writer{ids: make(map[string]uint32)}
}

// NewWriterSize returns an empty Writer with room for about terms distinct
// terms: adding rows to a term table that grows as it goes took about 15%
// longer (BenchmarkWriterAdd, -cpu 1: 13.5-14.3 ms against 11.2-13.4).
func NewWriterSize(terms int) *Writer {
	terms = max(terms, 0)
	return &Writer{ids: make(map[string]uint32, terms), terms: make([]termPostings, 0, terms), counts: make([]uint32, 0, terms)}
}

// Add indexes tokens (normally from Tokens) as row. Rows must be added in
// strictly increasing order; gaps are allowed and are rows of length 0.
// Empty tokens are ignored. A misuse is reported by WriteFile.
func (w *Writer) Add(row int, tokens []string) {
	if w.err != nil {
		return
	}
	switch {
	case row < 0 || uint64(row) >= math.MaxUint32:
		w.err = fmt.Errorf("lexical: Add(%d): row out of range", row)
		return
	case row < len(w.docLens):
		w.err = fmt.Errorf("lexical: Add(%d) after row %d: rows must be added in increasing order", row, len(w.docLens)-1)
		return
	}
	n := 0
	for _, tok := range tokens {
		if tok == "" {
			continue
		}
		n++
		id, ok := w.ids[tok]
		if !ok {
			id = uint32(len(w.terms))
			tok = strings.Clone(tok) // don't pin the caller's backing buffer
			w.ids[tok] = id
			w.terms = append(w.terms, termPostings{term: tok, last: -1})
			w.counts = append(w.counts, 0)
		}
		if w.counts[id] == 0 {
			w.touched = append(w.touched, id)
		}
		if w.counts[id] < math.MaxUint32 {
			w.counts[id]++
		}
	}
	for _, id := range w.touched {
		t := &w.terms[id]
		t.buf = appendPosting(t.buf, uint64(row-t.last-1), uint64(w.counts[id]))
		t.last = row
		t.df++
		w.counts[id] = 0
	}
	w.touched = w.touched[:0]
	w.addLen(row, n)
}

// AddLength records row as n tokens long without postings: a row whose
// text another row's postings stand for (a copy of its content), which
// keeps its length so that BM25's corpus statistics and length norm are
// those of every row. The order rules are Add's.
func (w *Writer) AddLength(row, n int) {
	if w.err != nil {
		return
	}
	switch {
	case row < 0 || uint64(row) >= math.MaxUint32 || n < 0:
		w.err = fmt.Errorf("lexical: AddLength(%d, %d): out of range", row, n)
		return
	case row < len(w.docLens):
		w.err = fmt.Errorf("lexical: AddLength(%d) after row %d: rows must be added in increasing order", row, len(w.docLens)-1)
		return
	}
	w.addLen(row, n)
}

// addLen appends row's length n, rows before it without one at 0.
func (w *Writer) addLen(row, n int) {
	for len(w.docLens) < row {
		w.docLens = append(w.docLens, 0)
	}
	dl := uint32(min(uint64(n), math.MaxUint32))
	w.docLens = append(w.docLens, dl)
	w.total += uint64(dl)
	w.maxLen = max(w.maxLen, dl)
}

// appendPosting appends one posting: gap is the row minus the previous row
// minus 1 (the first row of a list is its own gap), tf >= 1 the term
// frequency. See the package documentation for the encoding.
func appendPosting(buf []byte, gap, tf uint64) []byte {
	if tf < 4 {
		return binary.AppendUvarint(buf, gap<<2|(tf-1))
	}
	buf = binary.AppendUvarint(buf, gap<<2|3)
	return binary.AppendUvarint(buf, tf-4)
}

// appendEntry appends one dictionary entry: the term shares prefix bytes
// with the previous term of its block and continues with suffix.
func appendEntry(dst []byte, prefix int, suffix string, df uint32, postLen int) []byte {
	p, s := min(prefix, 15), min(len(suffix), 15)
	dst = append(dst, byte(p<<4|s))
	if p == 15 {
		dst = binary.AppendUvarint(dst, uint64(prefix-15))
	}
	if s == 15 {
		dst = binary.AppendUvarint(dst, uint64(len(suffix)-15))
	}
	dst = append(dst, suffix...)
	dst = binary.AppendUvarint(dst, uint64(df))
	return binary.AppendUvarint(dst, uint64(postLen))
}

// commonPrefix returns the length of the longest common prefix of a and b.
func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// WriteFile writes the index to path atomically: it writes a temporary file
// in the same directory, fsyncs it and renames it over path. The Writer can
// still be used afterwards.
func (w *Writer) WriteFile(path string) (err error) {
	if w.err != nil {
		return w.err
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, base+".tmp*")
	if err != nil {
		return fmt.Errorf("lexical: %w", err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()

	// Body first, after a placeholder for the header, which holds the
	// body's checksum.
	if _, err = f.Write(make([]byte, headerSize)); err != nil {
		return fmt.Errorf("lexical: %w", err)
	}
	bw := bufio.NewWriterSize(f, 256<<10)
	h, err := w.encode(bw)
	if err != nil {
		return fmt.Errorf("lexical: %s: %w", path, err)
	}
	if err = bw.Flush(); err != nil {
		return fmt.Errorf("lexical: %w", err)
	}
	if _, err = f.WriteAt(h, 0); err != nil {
		return fmt.Errorf("lexical: %w", err)
	}
	if err = f.Sync(); err != nil {
		return fmt.Errorf("lexical: %w", err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("lexical: %w", err)
	}
	if err = os.Rename(tmp, path); err != nil {
		return fmt.Errorf("lexical: %w", err)
	}
	syncDir(dir)
	return nil
}

// encode writes the file's body, everything after the header, to out and
// returns the header.
func (w *Writer) encode(out io.Writer) ([]byte, error) {
	if uint64(len(w.terms)) >= math.MaxUint32 {
		return nil, fmt.Errorf("%d terms, more than the format allows", len(w.terms))
	}
	order := make([]uint32, len(w.terms))
	for i := range order {
		order[i] = uint32(i)
	}
	slices.SortFunc(order, func(a, b uint32) int { return strings.Compare(w.terms[a].term, w.terms[b].term) })

	// The block index and the dictionary are built in memory (they are
	// smaller than the postings already held), the postings are streamed.
	blocks := (len(order) + blockTerms - 1) / blockTerms
	index := make([]byte, 0, (blocks+1)*blockEntrySize)
	var dict []byte
	var postOff uint64
	prev := ""
	for k, id := range order {
		t := &w.terms[id]
		p := 0
		if k%blockTerms == 0 {
			var key [8]byte
			copy(key[:], t.term)
			index = append(index, key[:]...)
			index = binary.LittleEndian.AppendUint64(index, postOff)
			index = binary.LittleEndian.AppendUint32(index, uint32(len(dict)))
		} else {
			p = commonPrefix(prev, t.term)
		}
		dict = appendEntry(dict, p, t.term[p:], t.df, len(t.buf))
		postOff += uint64(len(t.buf))
		prev = t.term
		if uint64(len(dict)) > math.MaxUint32 {
			return nil, errors.New("term dictionary larger than the format's 4 GiB")
		}
	}
	index = append(index, make([]byte, 8)...)
	index = binary.LittleEndian.AppendUint64(index, postOff)
	index = binary.LittleEndian.AppendUint32(index, uint32(len(dict)))

	width := 2
	if w.maxLen > math.MaxUint16 {
		width = 4
	}
	lens := make([]byte, 0, len(w.docLens)*width)
	for _, dl := range w.docLens {
		if width == 2 {
			lens = binary.LittleEndian.AppendUint16(lens, uint16(dl))
		} else {
			lens = binary.LittleEndian.AppendUint32(lens, dl)
		}
	}

	cw := checksumWriter{w: out, crc: checksum.New()}
	cw.write(index)
	cw.write(dict)
	for _, id := range order {
		cw.write(w.terms[id].buf)
	}
	cw.write(lens)
	if cw.err != nil {
		return nil, cw.err
	}

	h := make([]byte, headerSize)
	copy(h, magic)
	h[5] = version
	h[6] = byte(width)
	h[7] = blockTerms
	binary.LittleEndian.PutUint64(h[8:], uint64(len(w.docLens)))
	binary.LittleEndian.PutUint64(h[16:], uint64(len(w.terms)))
	binary.LittleEndian.PutUint64(h[24:], w.total)
	binary.LittleEndian.PutUint64(h[32:], uint64(len(dict)))
	binary.LittleEndian.PutUint64(h[40:], postOff)
	binary.LittleEndian.PutUint32(h[48:], cw.crc.Sum32())
	return h, nil
}

// syncDir makes a rename durable; best effort (not supported everywhere).
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// checksumWriter writes to w and adds what it wrote to crc. It keeps the
// first error and writes nothing after it.
type checksumWriter struct {
	w   io.Writer
	crc hash.Hash32
	err error
}

func (c *checksumWriter) write(p []byte) {
	if c.err != nil {
		return
	}
	n, err := c.w.Write(p)
	c.crc.Write(p[:n])
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	c.err = err
}
