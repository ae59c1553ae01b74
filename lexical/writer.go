package lexical

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

const (
	magic      = "BCLEX"
	version    = 1
	headerSize = 64
	entrySize  = 16
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

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
	buf  []byte // uvarint(row delta), uvarint(tf) ...
}

// NewWriter returns an empty Writer.
func NewWriter() *Writer {
	return &Writer{ids: make(map[string]uint32)}
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
		t.buf = binary.AppendUvarint(t.buf, uint64(row-t.last))
		t.buf = binary.AppendUvarint(t.buf, uint64(w.counts[id]))
		t.last = row
		t.df++
		w.counts[id] = 0
	}
	w.touched = w.touched[:0]

	for len(w.docLens) < row {
		w.docLens = append(w.docLens, 0)
	}
	dl := uint32(min(uint64(n), math.MaxUint32))
	w.docLens = append(w.docLens, dl)
	w.total += uint64(dl)
	w.maxLen = max(w.maxLen, dl)
}

// WriteFile writes the index to path atomically: it writes a temporary file
// in the same directory, fsyncs it and renames it over path. The Writer can
// still be used afterwards.
func (w *Writer) WriteFile(path string) (err error) {
	if w.err != nil {
		return w.err
	}
	order := make([]uint32, len(w.terms))
	for i := range order {
		order[i] = uint32(i)
	}
	slices.SortFunc(order, func(a, b uint32) int { return strings.Compare(w.terms[a].term, w.terms[b].term) })

	var termBytes, postBytes uint64
	for _, t := range w.terms {
		termBytes += uint64(len(t.term))
		postBytes += uint64(len(t.buf))
	}
	if termBytes > math.MaxUint32 {
		return fmt.Errorf("lexical: %s: %d bytes of terms, more than the format's 4 GiB", path, termBytes)
	}
	width := 2
	if w.maxLen > math.MaxUint16 {
		width = 4
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

	// Body first (after a placeholder header), checksummed as it goes.
	crc := crc32.New(castagnoli)
	bw := bufio.NewWriterSize(multiWriter{f, crc}, 256<<10)
	if _, err = f.Write(make([]byte, headerSize)); err != nil {
		return fmt.Errorf("lexical: %w", err)
	}
	var e [entrySize]byte
	var termOff, postOff uint64
	for _, id := range order {
		t := &w.terms[id]
		binary.LittleEndian.PutUint32(e[0:], uint32(termOff))
		binary.LittleEndian.PutUint32(e[4:], t.df)
		binary.LittleEndian.PutUint64(e[8:], postOff)
		bw.Write(e[:])
		termOff += uint64(len(t.term))
		postOff += uint64(len(t.buf))
	}
	binary.LittleEndian.PutUint32(e[0:], uint32(termOff))
	binary.LittleEndian.PutUint32(e[4:], 0)
	binary.LittleEndian.PutUint64(e[8:], postOff)
	bw.Write(e[:])
	for _, id := range order {
		bw.WriteString(w.terms[id].term)
	}
	for _, id := range order {
		bw.Write(w.terms[id].buf)
	}
	for _, dl := range w.docLens {
		if width == 2 {
			bw.Write(binary.LittleEndian.AppendUint16(e[:0], uint16(dl)))
		} else {
			bw.Write(binary.LittleEndian.AppendUint32(e[:0], dl))
		}
	}
	if err = bw.Flush(); err != nil {
		return fmt.Errorf("lexical: %w", err)
	}

	h := make([]byte, headerSize)
	copy(h, magic)
	h[5] = version
	h[6] = byte(width)
	binary.LittleEndian.PutUint64(h[8:], uint64(len(w.docLens)))
	binary.LittleEndian.PutUint64(h[16:], uint64(len(w.terms)))
	binary.LittleEndian.PutUint64(h[24:], w.total)
	binary.LittleEndian.PutUint64(h[32:], termBytes)
	binary.LittleEndian.PutUint64(h[40:], postBytes)
	binary.LittleEndian.PutUint32(h[48:], crc.Sum32())
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

// syncDir makes a rename durable; best effort (not supported everywhere).
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// multiWriter writes to the file and the checksum; it exists so the header
// placeholder, written directly to the file, stays out of the checksum.
type multiWriter struct {
	f   *os.File
	crc interface{ Write([]byte) (int, error) }
}

func (m multiWriter) Write(p []byte) (int, error) {
	n, err := m.f.Write(p)
	m.crc.Write(p[:n])
	if err == nil && n < len(p) {
		err = errors.New("short write")
	}
	return n, err
}
