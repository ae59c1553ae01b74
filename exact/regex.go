package exact

import (
	"bytes"
	"regexp/syntax"

	"github.com/wasilibs/go-re2"
)

// regex finds with RE2 itself (github.com/wasilibs/go-re2: the C++ library
// compiled to WebAssembly and translated to Go; no cgo, linear time).
// Measured on go-git's sources (2.7 MB of Go), file by file, the three
// engines in one run: for a class with no literal to look for, such as
// [A-Z][a-z]+[0-9]+, Go's regexp gives 11 MB/s and RE2 67 MB/s; for
// \w+Error\b 9 and 84; for \bfunc\b 12 and 90; grafana/regexp is within
// 25% of Go's except on case-folded literals (2.5×), which the folding
// search handles anyway. RE2 also matches nothing in invalid UTF-8, as git
// grep's PCRE does, where Go's regexp reads each bad byte as U+FFFD and
// its "." matches it. Literals skip the engine: bytes.Index and the
// folding search run at 1.5–2.5 GB/s (BenchmarkLines).
type regex struct {
	plain, notBOL *re2.Regexp
	// required, when set, finds a literal that every match holds: only
	// the lines holding it are worth the regexp.
	required finder
}

// find finds in line. The rest of a line can start inside a UTF-8
// sequence, as git's -w retry steps bytewise; PCRE in UTF mode, as git
// runs it, matches nothing in those bytes, and they are skipped so that
// no engine need agree.
func (r *regex) find(line []byte, notBOL bool) (int, int) {
	re, skip := r.plain, 0
	if notBOL {
		re = r.notBOL
		for skip < len(line) && line[skip]&0xC0 == 0x80 {
			skip++
		}
	}
	loc := re.FindIndex(line[skip:])
	if loc == nil {
		return -1, -1
	}
	return skip + loc[0], skip + loc[1]
}

// first searches the whole run of lines in one call (a call into RE2 costs
// more than a short line's scan), as no match can hold '\n' and ^, $ and \b
// see a line start or end alike in the run and in a line. With a required
// literal only the lines holding it are tried, one by one.
func (r *regex) first(lines []byte) int {
	if r.required == nil {
		if loc := r.plain.FindIndex(lines); loc != nil {
			return loc[0]
		}
		return -1
	}
	for pos := 0; pos < len(lines); {
		i := r.required.first(lines[pos:])
		if i < 0 {
			return -1
		}
		pos += bytes.LastIndexByte(lines[pos:pos+i], '\n') + 1
		end := len(lines)
		if i := bytes.IndexByte(lines[pos:], '\n'); i >= 0 {
			end = pos + i
		}
		if s, _ := r.find(lines[pos:end], false); s >= 0 {
			return pos + s
		}
		pos = end + 1
	}
	return -1
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
