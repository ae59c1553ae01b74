package exact

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
)

// In the C locale git grep's engines read bytes: "." and a class match
// one byte, and a pattern's non-ASCII bytes are characters of their own.
// Such a pattern is parsed with each byte b as the rune U+00bb, and run on
// RE2's Latin-1 mode, where each byte of the subject is the character of
// the same number.

// bytesAsRunes turns each byte of p into the rune of the same number.
func bytesAsRunes(p string) string {
	if isASCII(p) {
		return p
	}
	rs := make([]rune, len(p))
	for i := 0; i < len(p); i++ {
		rs[i] = rune(p[i])
	}
	return string(rs)
}

// latin1Bytes encodes a pattern's text, whose runes are bytes, in Latin-1.
// What is beyond U+00FF is left only as the end of a range (Go writes a
// class that cannot match as [^\x00-\x{10FFFF}]), which is U+00FF here.
func latin1Bytes(s string) string {
	s = wideEscape.ReplaceAllString(s, `\x{ff}`)
	var b strings.Builder
	for _, r := range s {
		if r < 0x100 {
			b.WriteByte(byte(r))
		} else {
			fmt.Fprintf(&b, `\x{%x}`, r)
		}
	}
	return b.String()
}

var wideEscape = regexp.MustCompile(`\\x\{0*[1-9A-Fa-f][0-9A-Fa-f]{2,}\}`)

// clampLatin1 keeps the bytes of re's classes and literals: what is
// beyond U+00FF matches nothing.
func clampLatin1(re *syntax.Regexp) *syntax.Regexp {
	out := mapSubs(re, clampLatin1)
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if r > 0xFF {
				return &syntax.Regexp{Op: syntax.OpNoMatch}
			}
		}
	case syntax.OpCharClass:
		var rs []rune
		for i := 0; i+1 < len(re.Rune); i += 2 {
			if re.Rune[i] <= 0xFF {
				rs = append(rs, re.Rune[i], min(re.Rune[i+1], 0xFF))
			}
		}
		if len(rs) == 0 {
			return &syntax.Regexp{Op: syntax.OpNoMatch}
		}
		out.Rune = rs
	}
	return out
}

// latin1Runes decodes a line byte by byte, for the backtracking engine.
func latin1Runes(line []byte) []rune {
	rs := make([]rune, len(line))
	for i, b := range line {
		rs[i] = rune(b)
	}
	return rs
}

func isASCIIBytes(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}
