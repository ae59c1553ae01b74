package exact

import (
	"bytes"
)

// literal finds a fixed string byte for byte.
type literal string

func (l literal) first(lines []byte) int {
	return bytes.Index(lines, []byte(l))
}

func (l literal) find(subject []byte, _ bool) (int, int) {
	i := bytes.Index(subject, []byte(l))
	if i < 0 {
		return -1, -1
	}
	return i, i + len(l)
}

// foldLiteral finds a string with ASCII case folding: it looks for the
// pattern's rarest byte in both cases with bytes.IndexByte (memchr speed)
// and compares the rest folded around each hit.
type foldLiteral struct {
	pat  []byte // folded
	rare int    // offset in pat of the byte searched for
	lo   byte   // pat[rare], folded
	up   byte   // its upper case, or lo
}

func newFoldLiteral(p string) *foldLiteral {
	f := &foldLiteral{pat: make([]byte, len(p))}
	for i := range len(p) {
		f.pat[i] = Fold(p[i])
		if byteRank[f.pat[i]] < byteRank[f.pat[f.rare]] {
			f.rare = i
		}
	}
	if len(p) > 0 {
		f.lo = f.pat[f.rare]
		f.up = f.lo
		if 'a' <= f.lo && f.lo <= 'z' {
			f.up = f.lo - 'a' + 'A'
		}
	}
	return f
}

func (f *foldLiteral) first(lines []byte) int {
	s, _ := f.find(lines, false)
	return s
}

func (f *foldLiteral) find(subject []byte, _ bool) (int, int) {
	if len(f.pat) == 0 {
		return 0, 0
	}
	// Positions of the rare byte in either case; -2 means not yet looked
	// for, len(subject) means none left.
	nextLo, nextUp := -2, -2
	if f.lo == f.up {
		nextUp = len(subject)
	}
	from := f.rare
	for {
		if nextLo < from {
			nextLo = indexFrom(subject, f.lo, from)
		}
		if nextUp < from {
			nextUp = indexFrom(subject, f.up, from)
		}
		at := min(nextLo, nextUp)
		if at >= len(subject) {
			return -1, -1
		}
		start := at - f.rare
		if start+len(f.pat) <= len(subject) && equalFold(subject[start:start+len(f.pat)], f.pat) {
			return start, start + len(f.pat)
		}
		from = at + 1
	}
}

// indexFrom is the offset of the first b in s at or after from, or len(s).
func indexFrom(s []byte, b byte, from int) int {
	if from >= len(s) {
		return len(s)
	}
	if i := bytes.IndexByte(s[from:], b); i >= 0 {
		return from + i
	}
	return len(s)
}

// equalFold reports whether s folded equals the folded pattern p.
func equalFold(s, p []byte) bool {
	for i, b := range s {
		if Fold(b) != p[i] {
			return false
		}
	}
	return true
}

// byteRank orders bytes from rare to common in source code, roughly:
// control bytes and non-ASCII first, then rare punctuation and upper-case
// letters, then digits, then lower-case letters by English frequency,
// then space. Only the order matters.
var byteRank = func() [256]int {
	var r [256]int
	common := " etaoinsrhldcumfpgwybvkxjqz" // from most to least common
	for i := range r {
		r[i] = 1
	}
	for _, b := range []byte("()[]{};:,.=\"'/*-+_<>!&|#$%^~`?@\\0123456789") {
		r[b] = 2
	}
	for i := range len(common) {
		r[common[i]] = 100 - i
	}
	return r
}()
