package pickaxe

import (
	"bytes"
	"encoding/binary"
	"errors"
	"sort"

	"github.com/bcindex/bcindex/exact"
)

// A change's record is git's patch of it with no context lines, which is
// all that -S and -G ask of a change (little endian, uvarints):
//
//	flags                 1: binary (git printed no lines)
//	hunks                 count, then per hunk: old start, old count,
//	                      new start, new count
//	removed, added        length and bytes each: the removed lines of every
//	                      hunk back to back, then the added ones, each line
//	                      ending in "\n" (one that lacked it in the blob
//	                      too, as git's diff hands it to -G)
//
// A string that cannot span lines occurs in a blob as often as in its
// lines, so the number of occurrences a change adds is the number in its
// added lines less the number in its removed ones, whatever lines the
// diff paired: -S needs no blob. -G matches the lines themselves, the
// ones git's diff (with the stored algorithm) reports.
const recBinary = 1

func (f *fileDiff) encode() []byte {
	n := 8 + 4*len(f.hunks)*4 + len(f.removed) + len(f.added) + 10
	b := make([]byte, 0, n)
	flags := uint64(0)
	if f.binary {
		flags |= recBinary
	}
	b = binary.AppendUvarint(b, flags)
	b = binary.AppendUvarint(b, uint64(len(f.hunks)))
	for _, h := range f.hunks {
		b = binary.AppendUvarint(b, uint64(h.oldStart))
		b = binary.AppendUvarint(b, uint64(h.oldCount))
		b = binary.AppendUvarint(b, uint64(h.newStart))
		b = binary.AppendUvarint(b, uint64(h.newCount))
	}
	b = binary.AppendUvarint(b, uint64(len(f.removed)))
	b = append(b, f.removed...)
	b = binary.AppendUvarint(b, uint64(len(f.added)))
	return append(b, f.added...)
}

// record is a decoded change record; its slices point into the frame.
// Its hunks stay encoded until its lines are asked for.
type record struct {
	binary         bool
	nhunks         int
	hunkBytes      []byte // nhunks times four uvarints
	removed, added []byte
}

var errBadRecord = errors.New("malformed change record")

// decodeRecord decodes the record at the start of b.
func decodeRecord(b []byte) (record, error) {
	var r record
	next := func() (int, bool) {
		v, n := binary.Uvarint(b)
		if n <= 0 || v > uint64(len(b))<<32 {
			return 0, false
		}
		b = b[n:]
		return int(v), true
	}
	flags, ok := next()
	if !ok {
		return r, errBadRecord
	}
	r.binary = flags&recBinary != 0
	nh, ok := next()
	if !ok || nh > len(b) {
		return r, errBadRecord
	}
	r.nhunks, r.hunkBytes = nh, b
	for range 4 * nh {
		if _, ok := next(); !ok {
			return r, errBadRecord
		}
	}
	r.hunkBytes = r.hunkBytes[:len(r.hunkBytes)-len(b)]
	n, ok := next()
	if !ok || n > len(b) {
		return r, errBadRecord
	}
	r.removed, b = b[:n:n], b[n:]
	if n, ok = next(); !ok || n > len(b) {
		return r, errBadRecord
	}
	r.added = b[:n:n]
	return r, nil
}

// hunks decodes the record's hunks, which decodeRecord checked.
func (r record) hunks() []hunk {
	out := make([]hunk, r.nhunks)
	b := r.hunkBytes
	next := func() int {
		v, n := binary.Uvarint(b)
		b = b[n:]
		return int(v)
	}
	for i := range out {
		out[i] = hunk{oldStart: next(), oldCount: next(), newStart: next(), newCount: next()}
	}
	return out
}

// trigrams appends the folded trigrams of the record's lines to dst.
func (r record) trigrams(dst []uint32) []uint32 {
	text := make([]byte, 0, len(r.removed)+len(r.added))
	text = append(append(text, r.removed...), r.added...)
	return exact.Trigrams(text, dst)
}

// count returns m's count in the record's removed (old) or added (new)
// lines: their share of a blob's count, for a pattern that counts the
// same in a text as in its lines (lineLocal).
func (r record) count(m Matcher, added bool) int {
	text := r.removed
	if added {
		text = r.added
	}
	if len(text) == 0 {
		return 0
	}
	return m.Count(text)
}

// lines returns the record's removed (old) or added (new) lines that m
// matches, numbered in their blob.
func (r record) lines(m Matcher, added bool) []Line {
	text := r.removed
	if added {
		text = r.added
	}
	_, plain := m.(*fixed)
	lit, folded := literalOf(m)
	if len(text) == 0 || lit == nil && !m.MatchLine(text) {
		// No line matches when the whole does not. With a literal, the
		// lines holding it are found directly, and only they are matched.
		return nil
	}
	// The line numbers: hunk h's lines start at line first[h] of text.
	hunks := r.hunks()
	first := make([]int, len(hunks)+1)
	for h, hk := range hunks {
		c := hk.oldCount
		if added {
			c = hk.newCount
		}
		first[h+1] = first[h] + c
	}
	number := func(k int) int {
		h := sort.SearchInts(first, k+1) - 1
		start := hunks[h].oldStart
		if added {
			start = hunks[h].newStart
		}
		return start + k - first[h]
	}
	var out []Line
	hay := text
	if folded {
		hay = asciiLower(text)
	}
	k, at := 0, 0 // the line number in text, and where it starts
	for at < len(text) {
		if lit != nil {
			// Only lines holding the literal can match: find the next.
			i := bytes.Index(hay[at:], lit)
			if i < 0 {
				break
			}
			ls := at + bytes.LastIndexByte(text[at:at+i], '\n') + 1
			k += bytes.Count(text[at:ls], []byte{'\n'})
			at = ls
		}
		end := at + indexNL(text[at:]) + 1
		// A plain string's line holds the literal just found: it matches.
		if (plain || m.MatchLine(text[at:end])) && k < first[len(first)-1] {
			out = append(out, lineOf(numbered{number(k), text[at:end]}))
		}
		k++
		at = end
	}
	return out
}

// literalOf returns a literal every matching line holds (nil: none), and
// whether it is in ASCII lower case, to be looked for in folded text.
func literalOf(m Matcher) (lit []byte, folded bool) {
	switch m := m.(type) {
	case *fixed:
		return m.needle, m.fold
	case *regex:
		return m.must, false
	}
	return nil, false
}

func indexNL(b []byte) int {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return i
	}
	return len(b) - 1
}
