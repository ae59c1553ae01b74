package lexical

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"os"
)

// ErrCorrupt is wrapped by every error about a malformed postings file.
var ErrCorrupt = errors.New("corrupt lexical index")

// Index is an open, memory-mapped postings file. Its methods are safe for
// concurrent use; the Postings iterators it returns are not.
type Index struct {
	path     string
	data     []byte // whole file
	unmap    func([]byte) error
	rows     int
	terms    int
	total    int64
	width    int
	checksum uint32
	entries  []byte // (terms+1) × entrySize
	blob     []byte // term bytes
	post     []byte // postings lists
	lens     []byte // rows × width
}

// Open memory-maps the postings file at path read-only. It checks the header
// and section sizes in constant time, so truncated files and wrong file types
// are rejected; Verify checks the rest. The file must not be modified in
// place while open; replacing it by rename, as WriteFile does, is safe.
func Open(path string) (*Index, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("lexical: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("lexical: %w", err)
	}
	size := st.Size()
	if size < headerSize {
		return nil, corrupt(path, "file is %d bytes, shorter than the %d-byte header", size, headerSize)
	}
	if uint64(size) > math.MaxInt {
		return nil, corrupt(path, "file too large (%d bytes)", size)
	}
	data, unmap, err := mapFile(f, int(size))
	if err != nil {
		return nil, fmt.Errorf("lexical: %s: %w", path, err)
	}
	ix, err := parse(path, data)
	if err != nil {
		unmap(data)
		return nil, err
	}
	ix.unmap = unmap
	return ix, nil
}

func corrupt(path, format string, args ...any) error {
	return fmt.Errorf("lexical: %s: %w: %s", path, ErrCorrupt, fmt.Sprintf(format, args...))
}

// parse validates data, a whole postings file, and returns an Index over it.
func parse(path string, data []byte) (*Index, error) {
	if len(data) < headerSize {
		return nil, corrupt(path, "file is %d bytes, shorter than the %d-byte header", len(data), headerSize)
	}
	h := data[:headerSize]
	if string(h[:len(magic)]) != magic {
		return nil, corrupt(path, "bad magic %q, not a lexical index", h[:len(magic)])
	}
	if h[5] != version {
		return nil, corrupt(path, "unsupported version %d (want %d)", h[5], version)
	}
	width := int(h[6])
	if width != 2 && width != 4 {
		return nil, corrupt(path, "bad doc-length width %d", width)
	}
	if h[7] != 0 || binary.LittleEndian.Uint32(h[52:]) != 0 || binary.LittleEndian.Uint64(h[56:]) != 0 {
		return nil, corrupt(path, "reserved header bytes are not zero")
	}
	rows := binary.LittleEndian.Uint64(h[8:])
	terms := binary.LittleEndian.Uint64(h[16:])
	total := binary.LittleEndian.Uint64(h[24:])
	termBytes := binary.LittleEndian.Uint64(h[32:])
	postBytes := binary.LittleEndian.Uint64(h[40:])

	// Bound each count so that the size computation below cannot overflow.
	size := uint64(len(data))
	if rows >= math.MaxUint32 || terms >= math.MaxUint32 || termBytes > math.MaxUint32 ||
		postBytes > 1<<62 || total > math.MaxInt64 {
		return nil, corrupt(path, "header counts out of range (rows %d, terms %d, term bytes %d, postings bytes %d)",
			rows, terms, termBytes, postBytes)
	}
	want := headerSize + (terms+1)*entrySize + termBytes + postBytes + rows*uint64(width)
	if size != want {
		what := "truncated"
		if size > want {
			what = "trailing data"
		}
		return nil, corrupt(path, "%s: file is %d bytes, header describes %d", what, size, want)
	}
	ix := &Index{
		path:     path,
		data:     data,
		rows:     int(rows),
		terms:    int(terms),
		total:    int64(total),
		width:    width,
		checksum: binary.LittleEndian.Uint32(h[48:]),
	}
	off := uint64(headerSize)
	next := func(n uint64) []byte {
		b := data[off : off+n : off+n]
		off += n
		return b
	}
	ix.entries = next((terms + 1) * entrySize)
	ix.blob = next(termBytes)
	ix.post = next(postBytes)
	ix.lens = next(rows * uint64(width))

	first, last := ix.entry(0), ix.entry(ix.terms)
	if first.termOff != 0 || first.postOff != 0 {
		return nil, corrupt(path, "term table does not start at offset 0")
	}
	if uint64(last.termOff) != termBytes || last.postOff != postBytes || last.df != 0 {
		return nil, corrupt(path, "term table sentinel does not match the section sizes")
	}
	return ix, nil
}

type entry struct {
	termOff uint32
	df      uint32
	postOff uint64
}

// entry i, 0 <= i <= terms.
func (ix *Index) entry(i int) entry {
	e := ix.entries[i*entrySize : i*entrySize+entrySize]
	return entry{
		termOff: binary.LittleEndian.Uint32(e[0:]),
		df:      binary.LittleEndian.Uint32(e[4:]),
		postOff: binary.LittleEndian.Uint64(e[8:]),
	}
}

// term returns the bytes of term i, or nil if the table is corrupt there.
func (ix *Index) term(i int) []byte {
	a := binary.LittleEndian.Uint32(ix.entries[i*entrySize:])
	b := binary.LittleEndian.Uint32(ix.entries[(i+1)*entrySize:])
	if a > b || uint64(b) > uint64(len(ix.blob)) {
		return nil
	}
	return ix.blob[a:b]
}

// find returns the index of term, or -1.
func (ix *Index) find(term string) int {
	lo, hi := 0, ix.terms
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if string(ix.term(m)) < term {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < ix.terms && string(ix.term(lo)) == term {
		return lo
	}
	return -1
}

// Rows returns 1 + the highest row added to the index.
func (ix *Index) Rows() int { return ix.rows }

// Terms returns the number of distinct terms.
func (ix *Index) Terms() int { return ix.terms }

// TotalLen returns the sum of all doc lengths (for BM25's average length).
func (ix *Index) TotalLen() int64 { return ix.total }

// DocLen returns the number of tokens in row, 0 for rows out of range.
func (ix *Index) DocLen(row int) int {
	if row < 0 || row >= ix.rows || ix.lens == nil {
		return 0
	}
	if ix.width == 2 {
		return int(binary.LittleEndian.Uint16(ix.lens[row*2:]))
	}
	return int(binary.LittleEndian.Uint32(ix.lens[row*4:]))
}

// Postings returns the rows containing term, ascending. A missing term gives
// an empty iterator. Postings allocates one small iterator; Iter does not.
func (ix *Index) Postings(term string) Postings {
	it := ix.Iter(term)
	if it.n == 0 && it.err == nil {
		return emptyIter
	}
	return &it
}

var emptyIter = &Iterator{row: -1}

// Iter is Postings returning the concrete iterator by value, so that
// lookups in a loop do not allocate:
//
//	it := ix.Iter(term)
//	for it.Next() { use(it.Row(), it.Freq()) }
func (ix *Index) Iter(term string) Iterator {
	i := ix.find(term)
	if i < 0 {
		return Iterator{row: -1}
	}
	e, end := ix.entry(i), ix.entry(i+1)
	if e.postOff > end.postOff || end.postOff > uint64(len(ix.post)) || e.df == 0 {
		return Iterator{row: -1, err: corrupt(ix.path, "bad postings offsets for term %q", term)}
	}
	return Iterator{
		data: ix.post[e.postOff:end.postOff],
		n:    int(e.df),
		rows: ix.rows,
		row:  -1,
	}
}

// Close unmaps the file. It must not run concurrently with other methods,
// and iterators obtained from ix must not be used after it. Close is
// idempotent; a closed Index is empty.
func (ix *Index) Close() error {
	data, unmap := ix.data, ix.unmap
	*ix = Index{path: ix.path}
	if data == nil || unmap == nil {
		return nil
	}
	return unmap(data)
}

// Verify checks the whole file: checksum, term order, every postings list
// and the doc-length total. It reads everything, unlike Open.
func (ix *Index) Verify() error {
	if ix.data == nil {
		return fmt.Errorf("lexical: %s: index is closed", ix.path)
	}
	if got := crc32.Checksum(ix.data[headerSize:], castagnoli); got != ix.checksum {
		return corrupt(ix.path, "checksum mismatch (stored %08x, computed %08x)", ix.checksum, got)
	}
	var prev []byte
	for i := 0; i < ix.terms; i++ {
		e, end := ix.entry(i), ix.entry(i+1)
		if e.termOff >= end.termOff || uint64(end.termOff) > uint64(len(ix.blob)) {
			return corrupt(ix.path, "term %d: bad or empty term offsets", i)
		}
		t := ix.blob[e.termOff:end.termOff]
		if i > 0 && string(prev) >= string(t) {
			return corrupt(ix.path, "term %d (%q) is not after %q", i, t, prev)
		}
		prev = t
		if e.postOff > end.postOff || end.postOff > uint64(len(ix.post)) || e.df == 0 {
			return corrupt(ix.path, "term %q: bad postings offsets", t)
		}
		it := Iterator{data: ix.post[e.postOff:end.postOff], n: int(e.df), rows: ix.rows, row: -1}
		for it.Next() {
		}
		if it.err != nil {
			return fmt.Errorf("%w (term %q)", it.err, t)
		}
		if it.k != it.n {
			return corrupt(ix.path, "term %q: postings list has %d rows, table says %d", t, it.k, it.n)
		}
	}
	var sum int64
	for r := 0; r < ix.rows; r++ {
		sum += int64(ix.DocLen(r))
	}
	if sum != ix.total {
		return corrupt(ix.path, "doc lengths sum to %d, header says %d", sum, ix.total)
	}
	return nil
}

// Postings iterates over the rows of one term in ascending order.
type Postings interface {
	Next() bool // advance; false at the end
	Row() int   // current row
	Freq() int  // occurrences of the term in the current row
	Len() int   // number of rows in the list (document frequency)
}

// Iterator is the concrete Postings. The zero value is an empty iterator.
type Iterator struct {
	data []byte
	off  int
	n    int // rows in the list
	k    int // rows returned so far
	rows int // rows in the index, bound for sanity checks
	row  int
	freq int
	err  error
}

// Next advances to the next row. It returns false at the end of the list or
// on corrupt data (see Err).
func (it *Iterator) Next() bool {
	if it.off >= len(it.data) || it.err != nil {
		if it.err == nil && it.k != it.n {
			it.err = fmt.Errorf("lexical: %w: postings list ends after %d of %d rows", ErrCorrupt, it.k, it.n)
		}
		return false
	}
	var delta, tf uint64
	var a, b int
	if d := it.data[it.off:]; len(d) >= 2 && d[0] < 0x80 && d[1] < 0x80 {
		delta, tf, a, b = uint64(d[0]), uint64(d[1]), 1, 1 // common case: one byte each
	} else {
		if delta, a = binary.Uvarint(d); a <= 0 {
			return it.fail("bad row delta")
		}
		if tf, b = binary.Uvarint(d[a:]); b <= 0 {
			return it.fail("bad term frequency")
		}
	}
	if delta == 0 || delta > uint64(it.rows-it.row-1) || tf == 0 || tf > math.MaxUint32 || it.k >= it.n {
		return it.fail("row or frequency out of range")
	}
	it.off += a + b
	it.row += int(delta)
	it.freq = int(tf)
	it.k++
	return true
}

func (it *Iterator) fail(what string) bool {
	it.err = fmt.Errorf("lexical: %w: postings: %s at byte %d", ErrCorrupt, what, it.off)
	it.off = len(it.data)
	return false
}

// Row returns the current row (-1 before the first Next).
func (it *Iterator) Row() int { return it.row }

// Freq returns the term frequency in the current row.
func (it *Iterator) Freq() int { return it.freq }

// Len returns the number of rows in the list (the term's document frequency).
func (it *Iterator) Len() int { return it.n }

// Err returns the corruption met by Next, if any.
func (it *Iterator) Err() error { return it.err }
