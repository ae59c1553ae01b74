package exact

import (
	"bytes"
	"regexp"
	"regexp/syntax"
)

// regex finds with Go's regexp (RE2: linear time in the subject).
type regex struct {
	plain, notBOL *regexp.Regexp
	// required, when set, finds a literal that every match holds: only
	// the lines holding it are worth the regexp.
	required finder
}

// find finds in line. The rest of a line can start inside a UTF-8
// sequence, as git's -w retry steps bytewise; PCRE in UTF mode, as git
// runs it, matches nothing in those bytes, where Go's regexp would read
// each as U+FFFD, so they are skipped.
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

// first runs the regexp line by line: on short subjects Go's regexp
// backtracks (bounded, still linear), several times faster than the NFA
// simulation it runs on a whole file. With a required literal only the
// lines holding it are tried. Each line is a subject of its own, which the
// pattern cannot tell from the whole run: ^, $ and \b see a line start or
// end either way.
func (r *regex) first(lines []byte) int {
	for pos := 0; pos < len(lines); {
		if r.required != nil {
			i := r.required.first(lines[pos:])
			if i < 0 {
				return -1
			}
			pos += bytes.LastIndexByte(lines[pos:pos+i], '\n') + 1
		}
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
