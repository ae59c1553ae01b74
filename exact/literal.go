package exact

import (
	"bytes"
	"regexp/syntax"
	"strings"
	"unicode/utf8"
)

// literal finds a fixed string byte for byte: it looks for the string's
// rarest byte (byteRank) with bytes.IndexByte and compares the rest
// around each hit, which in code is several times faster than
// bytes.Index, whose first byte is often a common letter (BenchmarkLines).
type literal struct {
	s    string
	rare int // offset in s of the byte searched for
}

func newLiteral(s string) literal {
	l := literal{s: s}
	for i := range len(s) {
		if byteRank[s[i]] < byteRank[s[l.rare]] {
			l.rare = i
		}
	}
	return l
}

func (l literal) first(lines []byte) int { return l.index(lines) }

func (l literal) find(subject []byte, _ bool) (int, int) {
	i := l.index(subject)
	if i < 0 {
		return -1, -1
	}
	return i, i + len(l.s)
}

func (l literal) index(b []byte) int {
	if len(l.s) < 2 {
		return bytes.Index(b, []byte(l.s))
	}
	c := l.s[l.rare]
	for from := l.rare; from < len(b); {
		i := bytes.IndexByte(b[from:], c)
		if i < 0 {
			return -1
		}
		at := from + i
		if start := at - l.rare; start+len(l.s) <= len(b) && string(b[start:start+len(l.s)]) == l.s {
			return start
		}
		from = at + 1
	}
	return -1
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

// wordLiteral finds a literal with a word boundary (\b) before it, after
// it, or both: each occurrence is found with bytes.Index and its edges are
// checked as RE2 checks \b (ASCII word bytes; the subject's ends count as
// non-word).
type wordLiteral struct {
	lit           literal
	before, after bool
}

// boundedLiteral recognises \bLITERAL\b (either \b may be missing) with a
// literal that is not case-folded.
func boundedLiteral(re *syntax.Regexp) (wordLiteral, bool) {
	if re.Op != syntax.OpConcat || len(re.Sub) < 2 || len(re.Sub) > 3 {
		return wordLiteral{}, false
	}
	w := wordLiteral{}
	subs := re.Sub
	if subs[0].Op == syntax.OpWordBoundary {
		w.before, subs = true, subs[1:]
	}
	if len(subs) > 0 && subs[len(subs)-1].Op == syntax.OpWordBoundary {
		w.after, subs = true, subs[:len(subs)-1]
	}
	if len(subs) != 1 || subs[0].Op != syntax.OpLiteral || subs[0].Flags&syntax.FoldCase != 0 || !w.before && !w.after {
		return wordLiteral{}, false
	}
	lit := string(subs[0].Rune)
	if lit == "" || strings.ContainsRune(lit, utf8.RuneError) {
		return wordLiteral{}, false
	}
	w.lit = newLiteral(lit)
	return w, true
}

func (w wordLiteral) find(subject []byte, _ bool) (int, int) {
	s := w.first(subject)
	if s < 0 {
		return -1, -1
	}
	return s, s + len(w.lit.s)
}

func (w wordLiteral) first(b []byte) int {
	for from := 0; from <= len(b); {
		i := w.lit.index(b[from:])
		if i < 0 {
			return -1
		}
		s := from + i
		if (!w.before || boundary(b, s)) && (!w.after || boundary(b, s+len(w.lit.s))) {
			return s
		}
		from = s + 1
	}
	return -1
}

// boundary reports whether \b holds at offset i of b.
func boundary(b []byte, i int) bool {
	left := i > 0 && isWord(b[i-1])
	right := i < len(b) && isWord(b[i])
	return left != right
}
