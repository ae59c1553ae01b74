package exact

import (
	"bytes"
	"regexp/syntax"
)

// anchored finds a pattern holding \A or \z (POSIX's \` and \'), which
// git grep reads as the start and end of the subject it gives the regex
// engine. That subject is a line when git checks one line, but when it
// skips ahead to the next line that can match (its look-ahead, taken for
// a plain list of patterns without -v) it is the rest of the file, from
// the line after the last hit. So `\`x` matches a line starting with x
// only at the start of the file or right after a line that matched, and
// `x\'` only the last line, when the file does not end in a newline.
//
// find is the one-line check: \A and \z are the line's ends. first is
// the look-ahead over a run of lines ending at the end of the file: \A
// holds at the start of its first line only, \z at the end of the run.
type anchored struct {
	// variants are the pattern with \A and \z kept (bit 0 set: \A; bit 1:
	// \z) or made unable to match.
	variants [4]*regex
	endZ     bool // \z stands for PCRE's \Z: also before a final newline
}

func newAnchored(re *syntax.Regexp, how how) (*anchored, error) {
	a := &anchored{endZ: how.endZ}
	for v := range a.variants {
		r, err := newRegex(textAnchors(re, v&1 != 0, v&2 != 0), how)
		if err != nil {
			return nil, err
		}
		a.variants[v] = r
	}
	return a, nil
}

func (a *anchored) find(line []byte, notBOL bool) (int, int) {
	return a.variants[3].find(line, notBOL)
}

// first is git's look-ahead: lines is the rest of the file. With endZ
// (PCRE's \Z) \z also holds before the file's final newline.
func (a *anchored) first(lines []byte) int {
	n := len(lines)
	trailing := n > 0 && lines[n-1] == '\n'
	body := n // the end of the last line
	if trailing {
		body--
	}
	endOK := func(end int) bool { return end == n || a.endZ && end == body }
	end0 := lineEnd(lines, 0)
	if s, _ := a.variants[1|btoi(endOK(end0))<<1].find(lines[:end0], false); s >= 0 {
		return s
	}
	from := end0 + 1
	if from <= body {
		lastStart := bytes.LastIndexByte(lines[:body], '\n') + 1
		switch {
		case lastStart-1 == from: // one empty line between
			if s, _ := a.variants[0].find(nil, false); s >= 0 {
				return from
			}
		case lastStart-1 > from:
			if s := a.variants[0].first(lines[from : lastStart-1]); s >= 0 {
				return from + s
			}
		}
		if s, _ := a.variants[btoi(endOK(body))<<1].find(lines[lastStart:body], false); s >= 0 {
			return lastStart + s
		}
	}
	// After a final newline, the empty rest, which the look-ahead takes
	// for a line.
	if trailing && from <= n {
		if s, _ := a.variants[2].find(nil, false); s >= 0 {
			return n
		}
	}
	return -1
}

// lineFirst is first with each line its own subject, as git checks lines
// when it does not look ahead.
func (a *anchored) lineFirst(lines []byte) int {
	for pos := 0; pos < len(lines); {
		end := lineEnd(lines, pos)
		if s, _ := a.find(lines[pos:end], false); s >= 0 {
			return pos + s
		}
		pos = end + 1
	}
	return -1
}

// lineAnchored is an anchored pattern read line by line.
type lineAnchored struct{ *anchored }

func (l lineAnchored) first(lines []byte) int { return l.lineFirst(lines) }

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// hasTextAnchor reports whether re holds \A or \z.
func hasTextAnchor(re *syntax.Regexp) bool {
	if re.Op == syntax.OpBeginText || re.Op == syntax.OpEndText {
		return true
	}
	for _, s := range re.Sub {
		if hasTextAnchor(s) {
			return true
		}
	}
	return false
}

// textAnchors is re with \A kept when start and \z kept when end, each
// otherwise unable to match.
func textAnchors(re *syntax.Regexp, start, end bool) *syntax.Regexp {
	switch {
	case re.Op == syntax.OpBeginText && !start, re.Op == syntax.OpEndText && !end:
		return &syntax.Regexp{Op: syntax.OpNoMatch}
	}
	out := *re
	out.Sub = make([]*syntax.Regexp, len(re.Sub))
	for i, s := range re.Sub {
		out.Sub[i] = textAnchors(s, start, end)
	}
	return &out
}
