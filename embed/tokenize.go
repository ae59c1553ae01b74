package embed

import (
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// maxTokenLen drops runs longer than this (hashes, base64, minified code):
// they carry no meaning a static model could learn.
const maxTokenLen = 40

// Tokens splits text code-aware: words and identifiers are cut into
// sub-tokens at snake_case underscores, camelCase humps (an acronym keeps
// together: "HTTPServer" → "http", "server") and letter/digit boundaries, then
// lowercased. Everything that is not a letter or digit separates tokens.
func Tokens(text string) []string {
	return appendTokens(nil, new([]byte), text)
}

// appendTokens appends the sub-tokens of text to dst. A sub-token that
// needed lowercasing is written to *buf and points there: the caller must
// not reuse *buf while it uses them.
func appendTokens(dst []string, buf *[]byte, text string) []string {
	start := -1    // start of the current word (letters/digits run)
	ascii := false // whether the current word is all ASCII
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			if asciiWord[c] {
				if start < 0 {
					start, ascii = i, true
				}
			} else if start >= 0 {
				dst = splitWordOf(dst, buf, text[start:i], ascii)
				start = -1
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if start < 0 {
				start = i
			}
			ascii = false
		} else if start >= 0 {
			dst = splitWordOf(dst, buf, text[start:i], ascii)
			start = -1
		}
		i += size
	}
	if start >= 0 {
		dst = splitWordOf(dst, buf, text[start:], ascii)
	}
	return dst
}

// asciiWord marks the ASCII letters and digits.
var asciiWord = func() (t [utf8.RuneSelf]bool) {
	for c := range t {
		t[c] = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
	}
	return t
}()

// splitWordOf is splitWord, byte by byte when the word is all ASCII.
func splitWordOf(dst []string, buf *[]byte, w string, ascii bool) []string {
	if ascii {
		return splitASCIIWord(dst, buf, w)
	}
	return splitWord(dst, buf, w)
}

// splitASCIIWord is splitWord for a word of ASCII letters and digits,
// whose runes are its bytes.
func splitASCIIWord(dst []string, buf *[]byte, w string) []string {
	if len(w) > maxTokenLen {
		return dst
	}
	start := 0
	prev := -1
	for i := 0; i < len(w); i++ {
		cls := asciiClass(w[i])
		if i > start && cls != prev {
			switch {
			case prev == clsDigit || cls == clsDigit:
				dst = append(dst, lowerASCII(buf, w[start:i])) // "utf8" → "utf", "8"
				start = i
			case prev == clsLower && cls == clsUpper:
				dst = append(dst, lowerASCII(buf, w[start:i])) // "fooBar"
				start = i
			case prev == clsUpper && cls == clsLower:
				// "HTTPServer": the last upper starts the next word.
				if i-1 > start {
					dst = append(dst, lowerASCII(buf, w[start:i-1]))
					start = i - 1
				}
			}
		}
		prev = cls
	}
	if start < len(w) {
		dst = append(dst, lowerASCII(buf, w[start:]))
	}
	return dst
}

func asciiClass(c byte) int {
	switch {
	case 'a' <= c && c <= 'z':
		return clsLower
	case 'A' <= c && c <= 'Z':
		return clsUpper
	}
	return clsDigit
}

// lowerASCII is lower for ASCII s.
func lowerASCII(buf *[]byte, s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; 'A' <= c && c <= 'Z' {
			at := len(*buf)
			for j := 0; j < len(s); j++ {
				c := s[j]
				if 'A' <= c && c <= 'Z' {
					c += 'a' - 'A'
				}
				*buf = append(*buf, c)
			}
			b := (*buf)[at:]
			return unsafe.String(unsafe.SliceData(b), len(b))
		}
	}
	return s
}

// charClass of a rune inside a word.
const (
	clsLower = iota
	clsUpper
	clsDigit
	clsOther // non-ASCII letters: never split inside
)

func classOf(r rune) int {
	switch {
	case 'a' <= r && r <= 'z':
		return clsLower
	case 'A' <= r && r <= 'Z':
		return clsUpper
	case '0' <= r && r <= '9':
		return clsDigit
	}
	if unicode.IsUpper(r) {
		return clsUpper
	}
	if unicode.IsDigit(r) {
		return clsDigit
	}
	if unicode.IsLower(r) {
		return clsLower
	}
	return clsOther
}

// splitWord appends the lowercased camelCase/digit pieces of a word.
func splitWord(dst []string, buf *[]byte, w string) []string {
	if len(w) > maxTokenLen {
		return dst
	}
	start := 0
	prev := -1
	for i, r := range w {
		cls := classOf(r)
		if i > start && cls != prev {
			cut := false
			switch {
			case prev == clsDigit || cls == clsDigit:
				cut = true // "utf8" → "utf", "8"
			case prev == clsLower && cls == clsUpper:
				cut = true // "fooBar"
			case prev == clsUpper && cls == clsLower:
				// "HTTPServer": the last upper starts the next word.
				if j := lastRuneStart(w, i); j > start {
					dst = append(dst, lower(buf, w[start:j]))
					start = j
				}
			}
			if cut {
				dst = append(dst, lower(buf, w[start:i]))
				start = i
			}
		}
		prev = cls
	}
	if start < len(w) {
		dst = append(dst, lower(buf, w[start:]))
	}
	return dst
}

// lastRuneStart returns the index of the rune before byte offset i.
func lastRuneStart(s string, i int) int {
	_, size := utf8.DecodeLastRuneInString(s[:i])
	return i - size
}

// lower lowercases s: s itself when it is already lower case, else its
// lowercase appended to *buf, which the result points into. Once *buf
// grows past its capacity, earlier results keep the old array, which is
// never written again.
func lower(buf *[]byte, s string) string {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf || 'A' <= c && c <= 'Z' {
			at := len(*buf)
			for _, r := range s {
				*buf = utf8.AppendRune(*buf, unicode.ToLower(r))
			}
			b := (*buf)[at:]
			return unsafe.String(unsafe.SliceData(b), len(b))
		}
	}
	return s
}
