package lexical

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"os"

	"github.com/bcindex/bcindex/internal/checksum"
	"github.com/bcindex/bcindex/internal/mmap"
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
	data, err := mmap.Map(f, 0, int(size))
	if err != nil {
		return nil, fmt.Errorf("lexical: %s: %w", path, err)
	}
	ix, err := parse(path, data)
	if err != nil {
		mmap.Unmap(data)
		return nil, err
	}
	ix.unmap = mmap.Unmap
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
	if got := checksum.Sum(ix.data[headerSize:]); got != ix.checksum {
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
	if got := checksum.Sum(ix.data[headerSize:]); got != ix.checksum {
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

// VisibleLens counts the rows set in allow (a bitset's words, bit i of
// word w for row 64w+i) that have tokens, and sums their lengths: BM25's
// corpus statistics over the rows a query sees, in one pass over the
// lengths.
func (ix *Index) VisibleLens(allow []uint64) (n int, total int64) {
	if ix.lens == nil {
		return 0, 0
	}
	for w, word := range allow {
		base := w * 64
		if base >= ix.rows {
			break
		}
		if lim := ix.rows - base; lim < 64 {
			word &= 1<<uint(lim) - 1
		}
		for ; word != 0; word &= word - 1 {
			r := base + bits.TrailingZeros64(word)
			var dl int
			if ix.width == 2 {
				dl = int(binary.LittleEndian.Uint16(ix.lens[r*2:]))
			} else {
				dl = int(binary.LittleEndian.Uint32(ix.lens[r*4:]))
			}
			if dl > 0 {
				n++
				total += int64(dl)
			}
		}
	}
	return n, total
}
