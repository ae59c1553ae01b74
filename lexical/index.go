package lexical

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"os"
	"slices"
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
	bsize    int // terms per dictionary block
	blocks   int
	checksum uint32
	index    []byte // (blocks+1) × blockEntrySize
	dict     []byte // front-coded dictionary entries
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
	bsize := uint64(h[7])
	if bsize == 0 {
		return nil, corrupt(path, "bad dictionary block size 0")
	}
	if binary.LittleEndian.Uint32(h[52:]) != 0 || binary.LittleEndian.Uint64(h[56:]) != 0 {
		return nil, corrupt(path, "reserved header bytes are not zero")
	}
	rows := binary.LittleEndian.Uint64(h[8:])
	terms := binary.LittleEndian.Uint64(h[16:])
	total := binary.LittleEndian.Uint64(h[24:])
	dictBytes := binary.LittleEndian.Uint64(h[32:])
	postBytes := binary.LittleEndian.Uint64(h[40:])

	// Bound each count so that the size computation below cannot overflow.
	size := uint64(len(data))
	if rows >= math.MaxUint32 || terms >= math.MaxUint32 || dictBytes > math.MaxUint32 ||
		postBytes > 1<<62 || total > math.MaxInt64 {
		return nil, corrupt(path, "header counts out of range (rows %d, terms %d, dictionary bytes %d, postings bytes %d)",
			rows, terms, dictBytes, postBytes)
	}
	blocks := (terms + bsize - 1) / bsize
	want := headerSize + (blocks+1)*blockEntrySize + dictBytes + postBytes + rows*uint64(width)
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
		bsize:    int(bsize),
		blocks:   int(blocks),
		checksum: binary.LittleEndian.Uint32(h[48:]),
	}
	off := uint64(headerSize)
	next := func(n uint64) []byte {
		b := data[off : off+n : off+n]
		off += n
		return b
	}
	ix.index = next((blocks + 1) * blockEntrySize)
	ix.dict = next(dictBytes)
	ix.post = next(postBytes)
	ix.lens = next(rows * uint64(width))

	if postOff, dictOff := ix.block(0); postOff != 0 || dictOff != 0 {
		return nil, corrupt(path, "block index does not start at offset 0")
	}
	if postOff, dictOff := ix.block(ix.blocks); postOff != postBytes || uint64(dictOff) != dictBytes || ix.blockKey(ix.blocks) != 0 {
		return nil, corrupt(path, "block index sentinel does not match the section sizes")
	}
	return ix, nil
}

// block returns the postings and dictionary offsets of block b,
// 0 <= b <= blocks (the last entry is the sentinel).
func (ix *Index) block(b int) (postOff uint64, dictOff uint32) {
	e := ix.index[b*blockEntrySize : b*blockEntrySize+blockEntrySize]
	return binary.LittleEndian.Uint64(e[8:]), binary.LittleEndian.Uint32(e[16:])
}

// blockKey returns the key of block b's first term (see termKey).
func (ix *Index) blockKey(b int) uint64 {
	return binary.BigEndian.Uint64(ix.index[b*blockEntrySize:])
}

// termKey returns the first 8 bytes of term, zero-padded, as a big-endian
// integer: keys order like their terms, except that terms equal in their
// first 8 bytes (or differing only by trailing zero bytes) have equal keys.
func termKey(term string) uint64 {
	var k uint64
	for i := range 8 {
		k <<= 8
		if i < len(term) {
			k |= uint64(term[i])
		}
	}
	return k
}

// blockRange returns the bounds of block b in the dictionary, or ok false if
// the block index is corrupt there. A block is never empty.
func (ix *Index) blockRange(b int) (start, end int, postOff uint64, ok bool) {
	postOff, s := ix.block(b)
	_, e := ix.block(b + 1)
	if s >= e || uint64(e) > uint64(len(ix.dict)) || postOff > uint64(len(ix.post)) {
		return 0, 0, 0, false
	}
	return int(s), int(e), postOff, true
}

// maxPrefix bounds an entry's shared-prefix length, so that it fits an int
// everywhere; valid entries share at most the previous term's length.
const maxPrefix = math.MaxInt32

// uvarintAt decodes the uvarint at b[pos:], returning it and the position
// after it, or next < 0 if it is malformed or runs past b.
func uvarintAt(b []byte, pos int) (v uint64, next int) {
	if pos < len(b) && b[pos] < 0x80 {
		return uint64(b[pos]), pos + 1
	}
	if pos >= len(b) {
		return 0, -1
	}
	v, n := binary.Uvarint(b[pos:])
	if n <= 0 {
		return 0, -1
	}
	return v, pos + n
}

// readEntry decodes the dictionary entry at b[pos:]: the length of the
// prefix shared with the previous term of the block, the rest of the term,
// the document frequency and the length of the postings list. next is the
// position after the entry, or < 0 if the entry is malformed or runs past b.
// The caller checks the values against the rest of the file.
func readEntry(b []byte, pos int) (prefix int, suffix []byte, df, postLen uint64, next int) {
	if pos >= len(b) {
		return 0, nil, 0, 0, -1
	}
	h := b[pos]
	pos++
	prefix, slen := int(h>>4), int(h&15)
	if prefix == 15 {
		var v uint64
		if v, pos = uvarintAt(b, pos); pos < 0 || v > maxPrefix-15 {
			return 0, nil, 0, 0, -1
		}
		prefix += int(v)
	}
	if slen == 15 {
		var v uint64
		if v, pos = uvarintAt(b, pos); pos < 0 || v > uint64(len(b)-pos) {
			return 0, nil, 0, 0, -1
		}
		slen += int(v)
	}
	if slen > len(b)-pos {
		return 0, nil, 0, 0, -1
	}
	suffix = b[pos : pos+slen : pos+slen]
	pos += slen
	if df, pos = uvarintAt(b, pos); pos < 0 {
		return 0, nil, 0, 0, -1
	}
	if postLen, pos = uvarintAt(b, pos); pos < 0 {
		return 0, nil, 0, 0, -1
	}
	return prefix, suffix, df, postLen, pos
}

// postingsOK reports whether a term's document frequency and postings list
// length are plausible: every posting takes at least one byte, and the list
// lies within the postings section from off.
func (ix *Index) postingsOK(off, df, postLen uint64) bool {
	return df > 0 && df <= postLen && off <= uint64(len(ix.post)) && postLen <= uint64(len(ix.post))-off
}

// lookup returns the document frequency and postings list of term, df 0 if
// the term is missing. It binary-searches the blocks' first terms, then
// scans one block, tracking the common prefix of term and the current entry
// so that most entries are passed over without comparing bytes.
func (ix *Index) lookup(term string) (df int, post []byte, err error) {
	// b: the last block whose first term is <= term. The keys decide
	// unless they are equal.
	key := termKey(term)
	lo, hi := 0, ix.blocks
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		k := ix.blockKey(m)
		before := k < key
		if k == key {
			first, ok := ix.firstTerm(m)
			if !ok {
				return 0, nil, corrupt(ix.path, "bad dictionary block %d", m)
			}
			before = string(first) <= term
		}
		if before {
			lo = m + 1
		} else {
			hi = m
		}
	}
	b := lo - 1
	if b < 0 {
		return 0, nil, nil
	}
	start, end, postOff, ok := ix.blockRange(b)
	if !ok {
		return 0, nil, corrupt(ix.path, "bad dictionary block %d", b)
	}
	blk := ix.dict[:end]
	// Invariant after each entry: the entry's term is < term and m is the
	// length of their common prefix. The next entry shares p bytes with
	// the current one and is greater: if p > m it is still < term with the
	// same m; if p < m it is > term; if p == m its suffix decides.
	m := 0
	for pos := start; pos < end; {
		var p int
		var suffix []byte
		var n, pl uint64
		// Fast path for the common entry: both lengths in the first byte,
		// document frequency and postings length one byte each.
		h := blk[pos]
		p = int(h >> 4)
		if s := int(h & 15); p < 15 && s < 15 && s+3 <= end-pos && blk[pos+1+s]|blk[pos+2+s] < 0x80 {
			suffix = blk[pos+1 : pos+1+s]
			n, pl = uint64(blk[pos+1+s]), uint64(blk[pos+2+s])
			pos += s + 3
		} else {
			next := 0
			if p, suffix, n, pl, next = readEntry(blk, pos); next < 0 {
				return 0, nil, corrupt(ix.path, "bad dictionary entry at byte %d", pos)
			}
			pos = next
		}
		if !ix.postingsOK(postOff, n, pl) {
			return 0, nil, corrupt(ix.path, "bad postings length before byte %d of the dictionary", pos)
		}
		switch {
		case p > m:
		case p < m:
			return 0, nil, nil
		default:
			rest := term[m:]
			j := 0
			for j < len(suffix) && j < len(rest) && suffix[j] == rest[j] {
				j++
			}
			switch {
			case j == len(suffix) && j == len(rest):
				return int(n), ix.post[postOff : postOff+pl : postOff+pl], nil
			case j == len(rest), j < len(suffix) && suffix[j] > rest[j]:
				return 0, nil, nil // the entry is > term
			}
			m += j
		}
		postOff += pl
	}
	return 0, nil, nil
}

// firstTerm returns the first term of block b, stored whole.
func (ix *Index) firstTerm(b int) ([]byte, bool) {
	_, off := ix.block(b)
	if uint64(off) >= uint64(len(ix.dict)) {
		return nil, false
	}
	pos := int(off)
	h := ix.dict[pos]
	if h < 15 && int(h) < len(ix.dict)-pos {
		return ix.dict[pos+1 : pos+1+int(h)], true // common case
	}
	if h>>4 != 0 {
		return nil, false
	}
	pos++
	n := int(h)
	if n == 15 {
		v, next := uvarintAt(ix.dict, pos)
		if next < 0 || v > uint64(len(ix.dict)-next) {
			return nil, false
		}
		pos, n = next, 15+int(v)
	}
	if n > len(ix.dict)-pos {
		return nil, false
	}
	return ix.dict[pos : pos+n], true
}

// termCursor walks the dictionary in order from the start of a block,
// checking its structure as it goes.
type termCursor struct {
	ix       *Index
	i        int    // index of the next term
	pos, end int    // next entry and end of its block in the dictionary
	postOff  uint64 // offset of the next term's postings list
	started  bool   // a term was read, so blocks must be contiguous
	term     []byte // current term, overwritten by next
	df       int
	post     []byte // current postings list
	err      error
}

// cursor returns a cursor before the first term of the block holding term i.
func (ix *Index) cursor(i int) termCursor {
	return termCursor{ix: ix, i: i / max(ix.bsize, 1) * ix.bsize}
}

// next advances to the next term; it returns false at the end of the
// dictionary or on corrupt data (see err).
func (c *termCursor) next() bool {
	ix := c.ix
	if c.err != nil || ix.bsize == 0 || c.i > ix.terms {
		return false
	}
	if c.i%ix.bsize == 0 || c.i == ix.terms {
		b := (c.i + ix.bsize - 1) / ix.bsize
		postOff, dictOff := ix.block(b)
		if c.started && (uint64(c.pos) != uint64(dictOff) || c.postOff != postOff) {
			c.fail("block %d does not start where block %d ends", b, b-1)
			return false
		}
		if c.i == ix.terms {
			c.i++
			return false
		}
		start, end, postOff, ok := ix.blockRange(b)
		if !ok {
			c.fail("bad dictionary block %d", b)
			return false
		}
		c.pos, c.end, c.postOff = start, end, postOff
	}
	p, suffix, df, pl, next := readEntry(c.ix.dict[:c.end], c.pos)
	switch {
	case next < 0:
		c.fail("term %d: bad dictionary entry at byte %d", c.i, c.pos)
		return false
	case !ix.postingsOK(c.postOff, df, pl):
		c.fail("term %d: bad document frequency or postings length", c.i)
		return false
	case len(suffix) == 0:
		c.fail("term %d: not after the previous term", c.i)
		return false
	}
	// The new term is prev[:p]+suffix. Within a block it is greater than
	// prev, and p their whole common prefix, exactly when p <= len(prev) and
	// the suffix's first byte is past prev[p] (if any); a block's first term
	// is whole and compared in full.
	if c.i%ix.bsize == 0 {
		if p != 0 {
			c.fail("term %d: first term of a block is not stored whole", c.i)
			return false
		}
		if c.started && string(suffix) <= string(c.term) {
			c.fail("term %d (%q) is not after %q", c.i, suffix, c.term)
			return false
		}
		if ix.blockKey(c.i/ix.bsize) != termKey(string(suffix)) {
			c.fail("term %d (%q) does not match its block key", c.i, suffix)
			return false
		}
	} else if p > len(c.term) || p < len(c.term) && suffix[0] <= c.term[p] {
		c.fail("term %d: not after the previous term", c.i)
		return false
	}
	c.term = append(c.term[:p], suffix...)
	c.df = int(df)
	c.post = ix.post[c.postOff : c.postOff+pl : c.postOff+pl]
	c.postOff += pl
	c.pos = next
	c.i++
	c.started = true
	return true
}

func (c *termCursor) fail(format string, args ...any) {
	c.err = corrupt(c.ix.path, format, args...)
}

// term returns a copy of term i, or nil if the dictionary is corrupt there.
func (ix *Index) term(i int) []byte {
	if i < 0 || i >= ix.terms {
		return nil
	}
	c := ix.cursor(i)
	for c.next() {
		if c.i == i+1 {
			return slices.Clone(c.term)
		}
	}
	return nil
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
	df, post, err := ix.lookup(term)
	if err != nil {
		return Iterator{row: -1, err: fmt.Errorf("%w (term %q)", err, term)}
	}
	if df == 0 {
		return Iterator{row: -1}
	}
	return Iterator{data: post, n: df, rows: ix.rows, row: -1}
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

// VerifyChecksum checks the CRC-32C of everything after the header: one
// pass over the file at memory speed, cheap enough to run whenever the
// file is mapped.
func (ix *Index) VerifyChecksum() error {
	if ix.data == nil {
		return fmt.Errorf("lexical: %s: index is closed", ix.path)
	}
	if got := crc32.Checksum(ix.data[headerSize:], castagnoli); got != ix.checksum {
		return corrupt(ix.path, "checksum mismatch (stored %08x, computed %08x)", ix.checksum, got)
	}
	return nil
}

// Verify checks the whole file: checksum, block index, term order, every
// postings list and the doc-length total. It reads everything, unlike Open.
func (ix *Index) Verify() error {
	if ix.data == nil {
		return fmt.Errorf("lexical: %s: index is closed", ix.path)
	}
	if got := crc32.Checksum(ix.data[headerSize:], castagnoli); got != ix.checksum {
		return corrupt(ix.path, "checksum mismatch (stored %08x, computed %08x)", ix.checksum, got)
	}
	c := ix.cursor(0)
	for c.next() {
		it := Iterator{data: c.post, n: c.df, rows: ix.rows, row: -1}
		for it.Next() {
		}
		if it.err != nil {
			return fmt.Errorf("%w (term %q)", it.err, c.term)
		}
		if it.k != it.n {
			return corrupt(ix.path, "term %q: postings list has %d rows, dictionary says %d", c.term, it.k, it.n)
		}
	}
	if c.err != nil {
		return c.err
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
	// Fast path: a one-byte code, and a one-byte frequency if the code's
	// low bits are 3 (d[1] may belong to the next posting). A branch on the
	// posting's length measured faster than computing it without one:
	// predicted, it lets the next load start before this byte is read.
	if d := it.data[it.off:]; len(d) >= 2 && d[0]|d[1] < 0x80 && it.k < it.n {
		code := uint(d[0])
		if gap := code >> 2; gap < uint(it.rows-it.row-1) {
			it.row += int(gap) + 1
			if code&3 != 3 {
				it.freq = int(code&3 + 1)
				it.off++
			} else {
				it.freq = 4 + int(d[1])
				it.off += 2
			}
			it.k++
			return true
		}
	}
	return it.next()
}

// next is Next for the postings the fast path does not take, and for the
// end of the list.
func (it *Iterator) next() bool {
	if it.off >= len(it.data) { // also after an error: fail skips to the end
		if it.err == nil && it.k != it.n {
			it.err = fmt.Errorf("lexical: %w: postings list ends after %d of %d rows", ErrCorrupt, it.k, it.n)
		}
		return false
	}
	d := it.data[it.off:]
	code, n := binary.Uvarint(d)
	if n <= 0 {
		return it.fail("bad row gap")
	}
	tf := code&3 + 1
	if tf == 4 {
		x, m := binary.Uvarint(d[n:])
		if m <= 0 || x > math.MaxUint32-4 {
			return it.fail("bad term frequency")
		}
		tf += x
		n += m
	}
	gap := code >> 2
	if gap >= uint64(it.rows-it.row-1) || it.k >= it.n {
		return it.fail("row out of range")
	}
	it.row += int(gap) + 1
	it.off += n
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
