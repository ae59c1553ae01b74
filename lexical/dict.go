package lexical

import (
	"encoding/binary"
	"math"
	"slices"
)

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
