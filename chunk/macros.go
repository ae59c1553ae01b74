package chunk

import "bytes"

// Macro lines. A C or C++ line that holds nothing but a macro invocation
// (ABSL_NAMESPACE_BEGIN, Q_OBJECT, DECLARE_FLAG(x) without a semicolon)
// expands to code the parser never sees, and tree-sitter, which has no
// preprocessor, reads the name as the start of the declaration below it: a
// syntax error that hides the definition, and a file whose recovery parses
// it again and again. blankMacroLines hands the parser such lines as
// spaces; byte offsets stay those of the file, whose text the chunks keep.

// macroLanguages are the languages whose files get their macro lines blanked.
var macroLanguages = map[string]bool{"c": true, "cpp": true}

// blankMacroLines returns src with its macro lines turned into spaces, or
// src itself when it has none.
func blankMacroLines(src []byte) []byte {
	out := src
	prevEnd := byte('\n') // the last non-blank byte of the previous non-blank line
	for at := 0; at < len(src); {
		e := bytes.IndexByte(src[at:], '\n')
		if e < 0 {
			e = len(src)
		} else {
			e += at
		}
		line := bytes.TrimSpace(src[at:e])
		if len(line) == 0 {
			at = e + 1
			continue
		}
		if isMacroLine(line) && !continues(prevEnd) && !nextContinues(src, e) {
			if &out[0] == &src[0] {
				out = append([]byte(nil), src...)
			}
			for i := at; i < e; i++ {
				if out[i] != '\t' && out[i] != '\r' {
					out[i] = ' '
				}
			}
		}
		prevEnd = line[len(line)-1]
		at = e + 1
	}
	return out
}

// isMacroLine reports whether a trimmed line is a macro name in capitals
// with at least one underscore, alone or with one parenthesised argument
// list, and nothing after it but a line comment.
func isMacroLine(line []byte) bool {
	if i := bytes.Index(line, []byte("//")); i > 0 {
		line = bytes.TrimSpace(line[:i])
	}
	n := 0
	for n < len(line) && (line[n] == '_' || line[n] >= 'A' && line[n] <= 'Z' || n > 0 && line[n] >= '0' && line[n] <= '9') {
		n++
	}
	name := line[:n]
	if n < 3 || bytes.IndexByte(name, '_') < 0 || name[0] == '_' && n < 5 {
		return false
	}
	rest := line[n:]
	if len(rest) == 0 {
		return true
	}
	if rest[0] != '(' || rest[len(rest)-1] != ')' {
		return false
	}
	depth := 0
	for i, b := range rest {
		switch b {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 && i != len(rest)-1 {
				return false
			}
		case ';', '{', '}', '"', '\'':
			return false
		}
	}
	return depth == 0
}

// continues reports whether a line ending in b leaves its statement or
// list open, so that the next line is part of it (an enum's last member, a
// macro body's line, an operand).
func continues(b byte) bool {
	return bytes.IndexByte([]byte(",\\([=|&+-*/%^?<!"), b) >= 0
}

// nextContinues reports whether the first non-blank line after byte e
// carries on the line before it.
func nextContinues(src []byte, e int) bool {
	rest := bytes.TrimLeft(src[min(e, len(src)):], " \t\r\n")
	return len(rest) > 0 && bytes.IndexByte([]byte(",;.)]+-*/%&|^?:=<>"), rest[0]) >= 0
}
