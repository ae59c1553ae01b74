package lexical

import (
	"encoding/binary"
	"fmt"
	"math"
)

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
