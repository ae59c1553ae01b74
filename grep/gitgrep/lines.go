package gitgrep

import (
	"bytes"
	"strconv"
)

// showLine is show_line: the hunk mark, the header, then the line (its
// matches coloured) or, with -o, each match on a line of its own.
func (s *fileState) showLine(bol, eol, lno, cno int, sign byte) {
	r := s.r
	if r.fileBreak && s.lastShown == 0 {
		s.out.WriteByte('\n') // every file shows its hunk mark; see skipFirstLine
	} else if r.before > 0 || r.after > 0 || r.funcbody {
		if s.lastShown == 0 || lno > s.lastShown+1 {
			s.color(slotSeparator, "--")
			s.out.WriteByte('\n')
		}
	}
	if !r.onlyMatching {
		s.header(lno, cno, sign)
	}
	line := s.content[bol:eol]
	pos := 0
	if r.color || r.onlyMatching {
		matchSlot, lineSlot := slotMatchContext, -1
		switch sign {
		case ':':
			matchSlot, lineSlot = slotMatchSelected, slotSelected
		case '-':
			lineSlot = slotContext
		case '=':
			lineSlot = slotFunction
		}
		for notBOL := false; pos < len(line); notBOL = true {
			a, b := r.prog.NextMatch(line[pos:], notBOL)
			if a < 0 || a == b {
				break
			}
			if r.onlyMatching {
				s.header(lno, cno, sign)
			} else {
				s.colorBytes(lineSlot, line[pos:pos+a])
			}
			s.colorBytes(matchSlot, line[pos+a:pos+b])
			if r.onlyMatching {
				s.out.WriteByte('\n')
			}
			pos += b
			cno += b
		}
		if !r.onlyMatching {
			s.colorBytes(lineSlot, line[pos:])
			s.out.WriteByte('\n')
		}
		return
	}
	s.out.Write(line)
	s.out.WriteByte('\n')
}

// header is show_line_header: the file name (or, with --heading, a line
// of its own before the file's first), the line number and the column.
func (s *fileState) header(lno, cno int, sign byte) {
	r := s.r
	if r.heading && s.lastShown == 0 {
		s.color(slotFilename, s.name)
		s.out.WriteByte('\n')
	}
	s.lastShown = lno
	if !r.heading && r.pathname {
		s.color(slotFilename, s.name)
		s.sep(sign)
	}
	if r.lineNumber {
		s.color(slotLineNumber, strconv.Itoa(lno))
		s.sep(sign)
	}
	if r.column && cno > 0 {
		s.color(slotColumn, strconv.Itoa(cno))
		s.sep(sign)
	}
}

func (s *fileState) showName() {
	s.color(slotFilename, s.name)
	if s.r.null {
		s.out.WriteByte(0)
	} else {
		s.out.WriteByte('\n')
	}
}

func (s *fileState) sep(sign byte) {
	if s.r.null {
		s.out.WriteByte(0)
		return
	}
	s.color(slotSeparator, string(sign))
}

func (s *fileState) color(slot int, text string) {
	if s.r.color && slot >= 0 && s.r.colors[slot] != "" {
		s.out.WriteString(s.r.colors[slot] + text + colorReset)
		return
	}
	s.out.WriteString(text)
}

func (s *fileState) colorBytes(slot int, text []byte) {
	if s.r.color && slot >= 0 && s.r.colors[slot] != "" {
		s.out.WriteString(s.r.colors[slot])
		s.out.Write(text)
		s.out.WriteString(colorReset)
		return
	}
	s.out.Write(text)
}

// matchFuncname is git's default function-line rule (a line starting with
// a letter, '_' or '$'), used when no diff driver names the file's
// language.
func matchFuncname(line []byte) bool {
	if len(line) == 0 {
		return false
	}
	b := line[0]
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || b == '_' || b == '$'
}

// isEmptyLine reports whether a line holds only white space.
func isEmptyLine(line []byte) bool {
	for _, b := range line {
		switch b {
		case ' ', '\t', '\n', '\v', '\f', '\r':
		default:
			return false
		}
	}
	return true
}

func lineEnd(c []byte, i int) int {
	if j := bytes.IndexByte(c[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(c)
}

func lineStart(c []byte, i int) int {
	return bytes.LastIndexByte(c[:i], '\n') + 1
}
