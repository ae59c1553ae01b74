package exact

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

// Syntax is the pattern language of a regular expression, as git grep's
// -G, -E and -P name them. Fixed strings (-F) are Options.Fixed.
type Syntax int

const (
	// PCRE is Perl syntax as RE2 reads it (-P): the zero value, and what
	// every caller but git grep's command line wants.
	PCRE Syntax = iota
	// BRE is POSIX basic syntax with GNU's extensions, as glibc's
	// regcomp reads it (git grep's default, -G).
	BRE
	// ERE is POSIX extended syntax (-E).
	ERE
)

// posixToRE2 rewrites a POSIX basic or extended regular expression (with
// GNU's extensions, as glibc's regcomp reads them) as RE2 syntax that
// matches the same lines:
//   - BRE: \( \) \{ \} \| \+ \? are operators and ( ) { } | + ? are
//     literal; * is literal at the start of the pattern, after \(, \| or
//     an anchoring ^; ^ anchors only at the start, after \( or \|, and $
//     only at the end, before \) or \|, both being literal elsewhere.
//   - ERE: ( ) { } | + ? * ^ $ are operators everywhere; a ')' that
//     closes nothing is literal.
//   - Both: in a bracket expression '\' is literal and [:class:],
//     [=c=] and [.c.] are read; \< and \> (word start and end) become \b;
//     \w \W \b \B \s \S keep their GNU meaning (\s is [[:space:]], so it
//     holds the vertical tab); \` and \' are the line's start and end;
//     any other escaped character stands for itself.
//
// Backreferences (\1 to \9) have no RE2 equivalent: they are an error.
func posixToRE2(p string, s Syntax) (string, error) {
	ext := s == ERE
	var b strings.Builder
	depth := 0
	// atStart: an operator here has nothing to apply to (pattern start,
	// after a group opens or an alternation).
	atStart := true
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '[':
			end, class, err := bracket(p, i)
			if err != nil {
				return "", err
			}
			b.WriteString(class)
			i = end
			atStart = false
			continue
		case c == '\\':
			if i+1 == len(p) {
				return "", fmt.Errorf("trailing backslash (\\)")
			}
			i++
			e := p[i]
			switch {
			case !ext && e == '(':
				b.WriteByte('(')
				depth++
				atStart = true
				continue
			case !ext && e == ')':
				if depth == 0 {
					return "", fmt.Errorf("unmatched ) or \\)")
				}
				depth--
				b.WriteByte(')')
			case !ext && e == '|':
				b.WriteByte('|')
				atStart = true
				continue
			case !ext && (e == '{' || e == '+' || e == '?'):
				if atStart && e != '{' {
					b.WriteString(regexp.QuoteMeta(p[i : i+1]))
					break
				}
				if e == '{' {
					end := strings.Index(p[i:], `\}`)
					if end < 0 {
						return "", fmt.Errorf("unmatched \\{")
					}
					iv := p[i+1 : i+end]
					if !validInterval(iv) {
						return "", fmt.Errorf("invalid content of \\{\\}")
					}
					b.WriteString("{" + iv + "}")
					i += end + 1
					break
				}
				b.WriteByte(e)
			case e >= '1' && e <= '9':
				return "", fmt.Errorf("backreference \\%c is not supported", e)
			case e == '<' || e == '>' || e == 'b':
				b.WriteString(`\b`)
			case e == 'B' || e == 'w' || e == 'W':
				b.WriteString(`\` + string(e))
			case e == 's':
				b.WriteString(`[[:space:]]`)
			case e == 'S':
				b.WriteString(`[^[:space:]]`)
			case e == '`':
				b.WriteString(`^`)
			case e == '\'':
				b.WriteString(`$`)
			default:
				b.WriteString(regexp.QuoteMeta(p[i : i+1]))
			}
			atStart = false
			continue
		case c == '^':
			if ext || atStart {
				b.WriteByte('^')
				continue // a * after an anchoring ^ is literal in a BRE
			}
			b.WriteString(`\^`)
		case c == '$':
			if ext || i+1 == len(p) || strings.HasPrefix(p[i+1:], `\)`) || strings.HasPrefix(p[i+1:], `\|`) {
				b.WriteByte('$')
			} else {
				b.WriteString(`\$`)
			}
		case c == '*':
			if atStart && !ext {
				b.WriteString(`\*`)
				break
			}
			if atStart {
				return "", fmt.Errorf("invalid preceding regular expression")
			}
			b.WriteByte('*')
		case ext && (c == '+' || c == '?'):
			if atStart {
				return "", fmt.Errorf("invalid preceding regular expression")
			}
			b.WriteByte(c)
		case ext && c == '{':
			end := strings.IndexByte(p[i:], '}')
			if atStart || end < 0 || !validInterval(p[i+1:i+end]) {
				return "", fmt.Errorf("invalid preceding regular expression")
			}
			b.WriteString(p[i : i+end+1])
			i += end
		case ext && c == '(':
			b.WriteByte('(')
			depth++
			atStart = true
			continue
		case ext && c == ')':
			if depth == 0 {
				b.WriteString(`\)`)
				break
			}
			depth--
			b.WriteByte(')')
		case ext && c == '|':
			b.WriteByte('|')
			atStart = true
			continue
		case c == '.':
			b.WriteByte('.')
		default:
			b.WriteString(regexp.QuoteMeta(p[i : i+1]))
		}
		atStart = false
	}
	if depth > 0 {
		return "", fmt.Errorf("unmatched ( or \\(")
	}
	return b.String(), nil
}

// validInterval reports whether s is the inside of a POSIX interval:
// "m", "m," or "m,n" with m <= n.
func validInterval(s string) bool {
	lo, hi, comma := strings.Cut(s, ",")
	num := func(x string) (int, bool) {
		if x == "" || len(x) > 4 {
			return 0, false
		}
		n := 0
		for _, c := range []byte(x) {
			if c < '0' || c > '9' {
				return 0, false
			}
			n = n*10 + int(c-'0')
		}
		return n, true
	}
	m, ok := num(lo)
	if !ok {
		return false
	}
	if !comma || hi == "" {
		return true
	}
	n, ok := num(hi)
	return ok && m <= n
}

// bracket reads the POSIX bracket expression opening at p[i] and returns
// the offset of its closing ']' and the RE2 class that matches the same.
func bracket(p string, i int) (int, string, error) {
	var b strings.Builder
	b.WriteByte('[')
	j := i + 1
	if j < len(p) && p[j] == '^' {
		b.WriteByte('^')
		j++
	}
	first := true
	for ; j < len(p); j++ {
		c := p[j]
		switch {
		case c == ']' && !first:
			return j, b.String() + "]", nil
		case c == '[' && j+1 < len(p) && (p[j+1] == ':' || p[j+1] == '=' || p[j+1] == '.'):
			kind := p[j+1]
			end := strings.Index(p[j+2:], string(kind)+"]")
			if end < 0 {
				return 0, "", fmt.Errorf("unmatched [, [^, [:, [., or [=")
			}
			name := p[j+2 : j+2+end]
			if kind == ':' {
				b.WriteString("[:" + name + ":]")
			} else {
				b.WriteString(classRune(name))
			}
			j += 2 + end + 1
		case c == '-' && !first && j+1 < len(p) && p[j+1] != ']':
			b.WriteByte('-')
		default:
			_, n := utf8.DecodeRuneInString(p[j:])
			b.WriteString(classRune(p[j : j+n]))
			j += n - 1
		}
		first = false
	}
	return 0, "", fmt.Errorf("unmatched [, [^, [:, [., or [=")
}

// classRune escapes a class member for RE2.
func classRune(s string) string {
	switch s {
	case `\`, "[", "]", "^", "-":
		return `\` + s
	}
	return s
}
