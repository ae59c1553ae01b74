package exact

import (
	"regexp/syntax"
	"strings"
)

// pcreAsGit rewrites a Perl pattern so that it matches what git grep -P
// matches with the PCRE2 it is built with (10.42 here):
//   - in a UTF-8 locale, \S, \W and \D outside brackets match ASCII
//     characters only (PCRE2's JIT, with the invalid-UTF mode git asks
//     for, matches no other character with them; [\S] does);
//   - with -i, \p{…} and \P{…} outside brackets do not fold case: \p{Lu}
//     matches upper-case letters only.
//   - \Z, which RE2 lacks, is \z with endZ set, as the look-ahead alone
//     tells them apart (see anchored).
func pcreAsGit(p string, utf, icase bool) (string, bool) {
	if !strings.Contains(p, `\`) {
		return p, false
	}
	endZ := false
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\' && i+1 < len(p) && p[i+1] == 'Q':
			end := strings.Index(p[i+2:], `\E`)
			if end < 0 {
				b.WriteString(p[i:])
				return b.String(), endZ
			}
			b.WriteString(p[i : i+2+end+2])
			i += 2 + end + 1
		case c == '\\' && i+1 < len(p):
			e := p[i+1]
			switch {
			case e == 'Z':
				b.WriteString(`\z`)
				endZ = true
			case utf && e == 'S':
				b.WriteString(`[\x00-\x08\x0E-\x1F!-\x7F]`)
			case utf && e == 'W':
				b.WriteString(`[\x00-/:-@\[-^` + "`" + `{-\x7F]`)
			case utf && e == 'D':
				b.WriteString(`[\x00-/:-\x7F]`)
			case icase && (e == 'p' || e == 'P'):
				end := i + 2
				if end < len(p) && p[end] == '{' {
					if j := strings.IndexByte(p[end:], '}'); j > 0 {
						end += j
					}
				}
				end = min(end+1, len(p))
				b.WriteString("(?-i:" + p[i:end] + ")")
				i = end - 2
			default:
				b.WriteString(p[i : i+2])
			}
			i++
		case c == '[':
			end := classEnd(p, i)
			b.WriteString(p[i:min(end+1, len(p))])
			i = end
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), endZ
}

// pcreMessages are PCRE2's words for what Go's parser refuses, as git
// grep -P prints them.
var pcreMessages = map[syntax.ErrorCode]string{
	syntax.ErrMissingParen:          "missing closing parenthesis",
	syntax.ErrUnexpectedParen:       "unmatched closing parenthesis",
	syntax.ErrMissingBracket:        "missing terminating ] for character class",
	syntax.ErrTrailingBackslash:     `\ at end of pattern`,
	syntax.ErrInvalidCharRange:      "range out of order in character class",
	syntax.ErrMissingRepeatArgument: "quantifier does not follow a repeatable item",
	syntax.ErrInvalidRepeatOp:       "quantifier does not follow a repeatable item",
	syntax.ErrInvalidRepeatSize:     "numbers out of order in {} quantifier",
	syntax.ErrInvalidPerlOp:         "unrecognized character after (? or (?-",
	syntax.ErrInvalidUTF8:           "UTF-8 error: isolated byte with 0x80 bit set",
}

// variableLookbehind reports whether a lookbehind of p can match text of
// different lengths, which PCRE2 refuses: a repeat other than {n}, or an
// alternation inside a group of it.
func variableLookbehind(p string) bool {
	for i := 0; i < len(p); i++ {
		switch {
		case p[i] == '\\':
			i++
		case p[i] == '[':
			i = classEnd(p, i)
		case strings.HasPrefix(p[i:], "(?<=") || strings.HasPrefix(p[i:], "(?<!"):
			depth := 0
			for j := i + 4; j < len(p); j++ {
				switch c := p[j]; {
				case c == '\\':
					j++
				case c == '[':
					j = classEnd(p, j)
				case c == '(':
					depth++
				case c == ')' && depth == 0:
					j = len(p)
				case c == ')':
					depth--
				case c == '|' && depth > 0:
					return true
				case c == '*' || c == '+' || c == '?' && p[j-1] != '(':
					return true
				case c == '{':
					if end := strings.IndexByte(p[j:], '}'); end > 0 && strings.Contains(p[j:j+end], ",") {
						return true
					}
				}
			}
		}
	}
	return false
}
