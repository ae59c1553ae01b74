package chunk

import (
	"bytes"
	"sort"
	"strings"
	"unicode/utf8"
)

const maxSignature = 200

// lineIndex maps byte offsets to 1-based line numbers.
type lineIndex []int // byte offset of the start of each line

func newLineIndex(src []byte) lineIndex {
	idx := make(lineIndex, 1, 1+len(src)/32)
	for i := 0; ; {
		j := bytes.IndexByte(src[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
		idx = append(idx, i)
	}
	return idx
}

// line returns the 1-based line holding byte off.
func (li lineIndex) line(off int) int {
	return sort.Search(len(li), func(i int) bool { return li[i] > off })
}

// lines returns the 1-based inclusive line span of [start, end).
func (li lineIndex) lines(start, end int) (int, int) {
	s := li.line(start)
	if end <= start {
		return s, s
	}
	return s, li.line(end - 1)
}

// count is the number of lines of the file: a trailing newline ends the last
// line rather than starting an empty one. An empty file has one empty line.
func (li lineIndex) count(n int) int {
	if len(li) > 1 && li[len(li)-1] == n {
		return len(li) - 1
	}
	return len(li)
}

// collapse joins whitespace runs into single spaces and caps the result at
// maxSignature bytes without splitting a UTF-8 sequence.
func collapse(b []byte) string {
	s := strings.Join(strings.Fields(strings.ToValidUTF8(string(b), "\uFFFD")), " ")
	if len(s) <= maxSignature {
		return s
	}
	cut := maxSignature
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}

// cleanComment strips comment markers from a run of // or /* */ comments and
// drops tool directives (//go:generate, //nolint...) the way go/doc does.
func cleanComment(text string) string {
	text = strings.ToValidUTF8(text, "\uFFFD")
	var out []string
	for len(text) > 0 {
		text = strings.TrimLeft(text, " \t\r\n")
		switch {
		case strings.HasPrefix(text, "(*"):
			end := strings.Index(text, "*)")
			body := text[2:]
			if end >= 0 {
				body, text = text[2:end], text[end+2:]
			} else {
				text = ""
			}
			body = strings.TrimPrefix(body, "*") // OCaml (** doc *)
			for _, l := range strings.Split(body, "\n") {
				out = append(out, strings.TrimSpace(l))
			}
		case strings.HasPrefix(text, "--"):
			l, rest, _ := strings.Cut(text, "\n")
			text = rest
			l = strings.TrimLeft(strings.TrimRight(l, " \t\r"), "-")
			out = append(out, strings.TrimPrefix(l, " "))
		case strings.HasPrefix(text, "/*"):
			end := strings.Index(text, "*/")
			body := text[2:]
			if end >= 0 {
				body, text = text[2:end], text[end+2:]
			} else {
				text = ""
			}
			body = strings.TrimPrefix(body, "*") // JSDoc /**
			for _, l := range strings.Split(body, "\n") {
				l = strings.TrimSpace(l)
				if strings.HasPrefix(l, "*") {
					l = strings.TrimPrefix(strings.TrimPrefix(l, "*"), " ")
				}
				out = append(out, l)
			}
		case strings.HasPrefix(text, "=begin"):
			// Ruby's block comment: =begin ... =end, each on its own line.
			body, rest, _ := strings.Cut(text[len("=begin"):], "\n=end")
			_, text, _ = strings.Cut(rest, "\n")
			for _, l := range strings.Split(body, "\n") {
				out = append(out, strings.TrimSpace(l))
			}
		case strings.HasPrefix(text, "//"), strings.HasPrefix(text, "#"):
			l, rest, _ := strings.Cut(text, "\n")
			text = rest
			l = strings.TrimRight(l, " \t\r")
			if isDirective(l) {
				continue
			}
			l = strings.TrimLeft(l, "/#")
			l = strings.TrimPrefix(l, "!") // Rust's inner doc //!
			l = strings.TrimPrefix(l, " ")
			out = append(out, l)
		default:
			// Not a comment: stop rather than loop.
			text = ""
		}
	}
	for i, l := range out {
		if strings.Contains(l, "<") {
			out[i] = xmlDocTags.Replace(l)
		}
	}
	return trimBlankLines(out)
}

// xmlDocTags drops C# XML doc wrapper tags and keeps their text.
var xmlDocTags = strings.NewReplacer("<summary>", "", "</summary>", "", "<para>", "", "</para>", "")

func isDirective(l string) bool {
	if !strings.HasPrefix(l, "//") || len(l) < 3 || l[2] == ' ' {
		return false
	}
	l = l[2:]
	return strings.HasPrefix(l, "go:") || strings.HasPrefix(l, "nolint") ||
		strings.HasPrefix(l, "lint:") || strings.HasPrefix(l, "export ") ||
		strings.HasPrefix(l, "extern ") || strings.HasPrefix(l, "line ")
}

// cleanDocstring strips the quotes of a Python string literal and removes
// common indentation like inspect.cleandoc.
func cleanDocstring(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.TrimLeft(s, "rRuUbBfF")
	for _, q := range []string{`"""`, `'''`, `"`, `'`} {
		if strings.HasPrefix(s, q) {
			s = strings.TrimSuffix(strings.TrimPrefix(s, q), q)
			break
		}
	}
	lines := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	indent := -1
	for _, l := range lines[1:] {
		if t := strings.TrimLeft(l, " \t"); t != "" {
			if n := len(l) - len(t); indent < 0 || n < indent {
				indent = n
			}
		}
	}
	lines[0] = strings.TrimSpace(lines[0])
	for i := 1; i < len(lines); i++ {
		if indent > 0 && len(lines[i]) >= indent {
			lines[i] = lines[i][indent:]
		}
		lines[i] = strings.TrimRight(lines[i], " \t")
	}
	return trimBlankLines(lines)
}

func trimBlankLines(lines []string) string {
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n")
}

// startsLine reports whether only blanks precede off on its line.
func startsLine(src []byte, off int) bool {
	for i := off - 1; i >= 0; i-- {
		switch src[i] {
		case '\n':
			return true
		case ' ', '\t', '\r', '\f', '\v':
		default:
			return false
		}
	}
	return true
}

// adjacent reports whether [_, end) and [start, _) are separated only by
// blanks holding at most one newline: no blank line between them.
func adjacent(src []byte, end, start int) bool {
	if end > start || start > len(src) {
		return false
	}
	nl := 0
	for _, c := range src[end:start] {
		switch c {
		case '\n':
			nl++
		case ' ', '\t', '\r', '\f', '\v':
		default:
			return false
		}
	}
	return nl <= 1
}
