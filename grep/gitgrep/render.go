package gitgrep

import (
	"bytes"
	"strconv"

	"github.com/bcindex/bcindex/exact"
	"github.com/bcindex/bcindex/grep"
)

// Colour slots of git grep (color.grep.<slot>), in grep.h's order.
const (
	slotContext = iota
	slotFilename
	slotFunction
	slotLineNumber
	slotColumn
	slotMatchContext
	slotMatchSelected
	slotSelected
	slotSeparator
	numSlots
)

var slotNames = [numSlots]string{"context", "filename", "function", "lineNumber", "column", "matchContext", "matchSelected", "selected", "separator"}

// defaultGrepColors are git's (GREP_OPT_INIT).
var defaultGrepColors = [numSlots]string{
	slotFilename: "\x1b[35m", slotLineNumber: "\x1b[32m", slotColumn: "\x1b[32m",
	slotMatchContext: "\x1b[1;31m", slotMatchSelected: "\x1b[1;31m", slotSeparator: "\x1b[36m",
}

const colorReset = "\x1b[m"

// grepRender prints a file's selected lines as git grep's grep.c does
// (grep_source_1, show_line and their helpers, ported): headers of file
// name, line and column, context and function lines, hunk marks, -o, -c,
// -l, -L, binary files, colour. Each file is rendered on its own, its
// output starting with the hunk mark that separates it from the previous
// file; the writer drops the first output's (see skipFirstLine).
type grepRender struct {
	prog                                *exact.Program
	lineNumber, column, pathname, null  bool
	heading, fileBreak, onlyMatching    bool
	before, after                       int
	funcname, funcbody                  bool
	count, nameOnly, unmatchName, quiet bool
	invert                              bool
	color                               bool
	colors                              [numSlots]string
	name                                func(f *grep.File) string
	json, vimgrep                       bool
	jsonFile                            func(f *grep.File, lines []exact.Line, spans func(exact.Line) [][2]int) []byte
	// defsOf, when set, gives a file's definitions for -p and -W (see
	// funcs.go), or nil for git's default rule.
	defsOf func(f *grep.File) []definition
}

// skipFirstLine reports whether the first line of the output is a hunk
// mark to drop (git's skip_first_line).
func (r *grepRender) skipFirstLine() bool {
	return !(r.nameOnly || r.unmatchName || r.count || r.json || r.vimgrep) &&
		(r.before > 0 || r.after > 0 || r.fileBreak || r.funcbody)
}

// fileState is grep_source_1's state for one file.
type fileState struct {
	r         *grepRender
	out       bytes.Buffer
	name      string
	content   []byte
	lastShown int
	defs      []definition // the chunker's definitions; nil: git's default rule
}

func (r *grepRender) render(f *grep.File) []byte {
	if r.quiet {
		return nil
	}
	s := &fileState{r: r, name: r.name(f), content: f.Content}
	switch {
	case r.unmatchName:
		s.showName()
		return s.out.Bytes()
	case r.nameOnly:
		s.showName()
		return s.out.Bytes()
	case r.count:
		if r.pathname {
			s.color(slotFilename, s.name)
			s.sep(':')
		}
		s.out.WriteString(strconv.Itoa(len(f.Lines)) + "\n")
		return s.out.Bytes()
	case f.Binary:
		s.out.WriteString("Binary file ")
		s.color(slotFilename, s.name)
		s.out.WriteString(" matches\n")
		return s.out.Bytes()
	case r.json:
		return r.jsonFile(f, f.Lines, s.spans)
	case r.vimgrep:
		for _, l := range f.Lines {
			for _, sp := range s.spans(l) {
				s.out.WriteString(s.name + ":" + strconv.Itoa(l.Number) + ":" + strconv.Itoa(sp[0]+1) + ":")
				s.out.Write(f.Content[l.Start:l.End])
				s.out.WriteByte('\n')
			}
		}
		return s.out.Bytes()
	}
	if (r.funcname || r.funcbody) && r.defsOf != nil {
		s.defs = r.defsOf(f)
	}
	n := 0 // the output's size without context: grown once
	for _, l := range f.Lines {
		n += l.End - l.Start + len(s.name) + 16
	}
	s.out.Grow(n)
	s.lines(f.Lines)
	return s.out.Bytes()
}

// spans are a line's matches as git colours them.
func (s *fileState) spans(l exact.Line) [][2]int {
	var out [][2]int
	line := s.content[l.Start:l.End]
	for pos, notBOL := 0, false; pos < len(line); notBOL = true {
		a, b := s.r.prog.NextMatch(line[pos:], notBOL)
		if a < 0 || a == b {
			break
		}
		out = append(out, [2]int{pos + a, pos + b})
		pos += b
	}
	return out
}

// lines is grep_source_1's loop over a text file's lines, knowing which
// are selected (hits, in order): hits with their context and function
// lines. Between windows it skips to the next hit, as git's look-ahead
// does.
func (s *fileState) lines(hits []exact.Line) {
	r, c := s.r, s.content
	lastHit, showFunction, peek := 0, false, -1
	funcEnd := 0 // with definitions: the last line of the hit's function
	h := 0
	lno, bol := 1, 0
	for {
		if s.defs != nil {
			showFunction = lno <= funcEnd
		}
		if !(lastHit > 0 && (showFunction || lno <= lastHit+r.after)) {
			// The next hit can be git's line after the final newline
			// (exact.Program.phantom), reached by this jump only, and
			// only from a line of the file.
			if h == len(hits) || bol >= len(c) {
				break
			}
			lno, bol = hits[h].Number, hits[h].Start
		} else if bol >= len(c) {
			break
		}
		eol := lineEnd(c, bol)
		if h < len(hits) && hits[h].Number == lno {
			h++
			switch {
			case s.defs != nil:
				s.preContextDefs(bol, lno)
			case r.before > 0 || r.funcbody:
				s.preContext(bol, eol, lno)
			case r.funcname:
				s.funcnameLine(bol, lno)
			}
			cno := 0
			if r.column {
				col, icol := r.prog.Columns(c[bol:eol])
				if r.invert {
					col = icol
				}
				cno = max(col, 0) + 1
			}
			s.showLine(bol, eol, lno, cno, ':')
			lastHit = lno
			if r.funcbody && s.defs == nil {
				showFunction = true
			} else if d := enclosing(s.defs, lno); r.funcbody && d != nil {
				funcEnd = max(funcEnd, d.end)
			}
		} else {
			if s.defs == nil && showFunction && (peek < 0 || peek < bol) {
				peek = bol
				pe := eol
				for peek <= len(c) && isEmptyLine(c[peek:pe]) {
					peek = pe + 1
					if peek > len(c) {
						break
					}
					pe = lineEnd(c, peek)
				}
				if peek <= len(c) && matchFuncname(c[peek:pe]) {
					showFunction = false
				}
			}
			if showFunction || lastHit > 0 && lno <= lastHit+r.after {
				cno := 0
				if r.column {
					col, _ := r.prog.Columns(c[bol:eol])
					cno = col + 1
				}
				s.showLine(bol, eol, lno, cno, '-')
			}
		}
		bol = eol + 1
		lno++
	}
}
