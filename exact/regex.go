package exact

import (
	"bytes"
	"regexp"
	"regexp/syntax"
	"unicode/utf8"

	"github.com/wasilibs/go-re2"
	"github.com/wasilibs/go-re2/experimental"
)

// regex finds with RE2 itself (github.com/wasilibs/go-re2: the C++ library
// compiled to WebAssembly and translated to Go; no cgo, linear time).
// Measured on go-git's sources and tests (4.2 MB), file by file, in one
// run (BenchmarkEngines; a quiet moment on the shared 2-core machine):
// [A-Z][a-z]+[0-9]+ 37 MB/s with Go's regexp and 285 with RE2; \w+Error\b
// 30 and 202; \bfunc\b 41 and 175. grafana/regexp, measured alike in a
// scratch module, was within 25% of Go's except on case-folded literals
// (2.5×), which the folding search handles anyway. RE2 also matches
// nothing in invalid UTF-8, as git grep's PCRE does. Literals skip the
// engines: in one run of BenchmarkLines, bytes.Index and the folding
// search ran at 2.3–2.6 GB/s where RE2 ran a case-folded alternation at
// 115 MB/s, and a regex with a literal to look for at 780 MB/s.
//
// Both engines have RE2's semantics, but Go's regexp reads an invalid
// UTF-8 byte as U+FFFD, which "." and negated classes match, and a call
// into RE2 costs about 1.5 µs (it copies its subject into RE2's memory)
// where Go's costs 0.2 µs on a short line. So one line at a time (-w
// retries, spans, candidate lines, and dense matches) goes to Go's regexp
// when it is valid UTF-8 or longer than longLine, and to RE2 otherwise;
// long runs of lines without a match go to RE2. Only on a line over
// longLine holding invalid UTF-8 can the result depend on the engine.
type regex struct {
	plain, notBOL     *re2.Regexp
	goPlain, goNotBOL *regexp.Regexp
	// required, when set, finds a literal that every match holds: only
	// the lines holding it are worth the regexp.
	required finder
	// latin1: each byte is a character (the C locale); Go's regexp, which
	// reads UTF-8, sees ASCII lines only.
	latin1 bool
}

// how is how a pattern's engines are compiled: for leftmost-longest
// matches (POSIX's rule), for bytes as characters (latin1), and with \z
// standing for PCRE's \Z (endZ, see anchored).
type how struct{ longest, latin1, endZ bool }

const (
	longLine = 64 << 10
	probe    = 128 // bytes of lines tried one by one before a bulk search
	minChunk = 4 << 10
	maxChunk = 1 << 20
)

// newRegex compiles the rewritten pattern re for both engines, each
// finding leftmost-longest matches with longest (POSIX's rule).
func newRegex(re *syntax.Regexp, how how) (*regex, error) {
	plain, notBOL := re.String(), withoutBOL(re).String()
	r := &regex{latin1: how.latin1}
	compile := re2.Compile
	if how.latin1 {
		compile = func(s string) (*re2.Regexp, error) { return experimental.CompileLatin1(latin1Bytes(s)) }
	}
	var err error
	if r.plain, err = compile(plain); err != nil {
		return nil, err
	}
	if r.notBOL, err = compile(notBOL); err != nil {
		return nil, err
	}
	if r.goPlain, err = regexp.Compile(plain); err != nil {
		return nil, err
	}
	if r.goNotBOL, err = regexp.Compile(notBOL); err != nil {
		return nil, err
	}
	if how.longest {
		r.plain.Longest()
		r.notBOL.Longest()
		r.goPlain.Longest()
		r.goNotBOL.Longest()
	}
	return r, nil
}

// engine is what both engines offer.
type engine interface{ FindIndex([]byte) []int }

// find finds in line. The rest of a line can start inside a UTF-8
// sequence, as git's -w retry steps bytewise; PCRE in UTF mode, as git
// runs it, matches nothing in those bytes, and they are skipped.
func (r *regex) find(line []byte, notBOL bool) (int, int) {
	skip := 0
	for notBOL && !r.latin1 && skip < len(line) && line[skip]&0xC0 == 0x80 {
		skip++
	}
	line = line[skip:]
	var re engine
	goEngine := len(line) > longLine || utf8.Valid(line)
	if r.latin1 {
		goEngine = isASCIIBytes(line)
	}
	switch {
	case goEngine && notBOL:
		re = r.goNotBOL
	case goEngine:
		re = r.goPlain
	case notBOL:
		re = r.notBOL
	default:
		re = r.plain
	}
	loc := re.FindIndex(line)
	if loc == nil {
		return -1, -1
	}
	return skip + loc[0], skip + loc[1]
}

// first returns the offset of the leftmost match in lines. With a required
// literal only the lines holding it are tried. Otherwise the first probe
// bytes are tried line by line, which is cheap when matches are dense, and
// then RE2 searches chunks of whole lines, many lines per call, as no match
// can hold '\n' and ^, $ and \b see a line start or end alike in a run of
// lines and in a line. The chunk doubles from minChunk to maxChunk while
// nothing matches, so the copying stays within a few times the text
// searched however many matches follow.
func (r *regex) first(lines []byte) int {
	pos := 0
	for pos < len(lines) && (r.required != nil || pos < probe) {
		if r.required != nil {
			i := r.required.first(lines[pos:])
			if i < 0 {
				return -1
			}
			pos += bytes.LastIndexByte(lines[pos:pos+i], '\n') + 1
		}
		end := lineEnd(lines, pos)
		if end-pos > longLine {
			// A long line is searched once here: RE2's copy costs less
			// than Go's slower scan.
			if r.required == nil {
				break
			}
			if loc := r.plain.FindIndex(lines[pos:end]); loc != nil {
				return pos + loc[0]
			}
		} else if s, _ := r.find(lines[pos:end], false); s >= 0 {
			return pos + s
		}
		pos = end + 1
	}
	for size := minChunk; pos < len(lines); size = min(2*size, maxChunk) {
		end := len(lines)
		if pos+size < len(lines) {
			end = lineEnd(lines, pos+size)
		}
		if loc := r.plain.FindIndex(lines[pos:end]); loc != nil {
			return pos + loc[0]
		}
		pos = end + 1
	}
	return -1
}

// lineEnd returns the offset of the first '\n' in b at or after i, or len(b).
func lineEnd(b []byte, i int) int {
	if j := bytes.IndexByte(b[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(b)
}

// requiredLiteral returns the longest literal that every match of re
// holds, and whether it is case-folded, or "".
func requiredLiteral(re *syntax.Regexp) (lit string, folded bool) {
	switch re.Op {
	case syntax.OpLiteral:
		return string(re.Rune), re.Flags&syntax.FoldCase != 0
	case syntax.OpCapture, syntax.OpPlus:
		return requiredLiteral(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return requiredLiteral(re.Sub[0])
		}
	case syntax.OpConcat:
		for _, s := range re.Sub {
			if l, f := requiredLiteral(s); len(l) > len(lit) {
				lit, folded = l, f
			}
		}
	}
	return lit, folded
}
