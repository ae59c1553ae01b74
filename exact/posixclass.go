package exact

import (
	"strings"
	"unicode/utf8"
)

// Bracket expressions of POSIX patterns ([...], [[:class:]], [[=e=]],
// [[.c.]]) turned into RE2 classes, with glibc's classes per locale.

// posixClasses are the classes glibc knows, as RE2 class items: ASCII's
// and, in a UTF-8 locale, Unicode's (glibc's i18n tables, approximated by
// Unicode's categories).
var posixClasses = map[string][2]string{
	"alpha":  {`A-Za-z`, `\p{L}`},
	"upper":  {`A-Z`, `\p{Lu}`},
	"lower":  {`a-z`, `\p{Ll}`},
	"digit":  {`0-9`, `0-9`},
	"xdigit": {`0-9A-Fa-f`, `0-9A-Fa-f`},
	"alnum":  {`0-9A-Za-z`, `0-9\p{L}`},
	"space":  {`\t\n\x0B\f\r `, `\t\n\x0B\f\r \x{1680}\x{2000}-\x{2006}\x{2008}-\x{200A}\x{2028}\x{2029}\x{205F}\x{3000}`},
	"blank":  {`\t `, `\t \x{1680}\x{2000}-\x{2006}\x{2008}-\x{200A}\x{205F}\x{3000}`},
	"punct":  {`!-/:-@\[-` + "`" + `{-~`, `!-/:-@\[-` + "`" + `{-~\x{A0}\p{P}\p{S}`},
	"print":  {`\x20-\x7E`, `\x20-\x7E\x{A0}-\x{10FFFF}`},
	"graph":  {`\x21-\x7E`, `\x21-\x7E\x{A0}-\x{167F}\x{1681}-\x{1FFF}\x{200B}-\x{2027}\x{202A}-\x{205E}\x{2060}-\x{2FFF}\x{3001}-\x{10FFFF}`},
	"cntrl":  {`\x00-\x1F\x7F`, `\x00-\x1F\x7F-\x{9F}`},
}

func classItems(name string, uni bool) string {
	c := posixClasses[name]
	if uni {
		return c[1]
	}
	return c[0]
}

// escapeClass is GNU's \w \W \s \S as an RE2 class.
func escapeClass(e byte, uni bool) string {
	switch e {
	case 'w':
		return "[" + classItems("alnum", uni) + "_]"
	case 'W':
		return "[^" + classItems("alnum", uni) + "_]"
	case 's':
		return "[" + classItems("space", uni) + "]"
	}
	return "[^" + classItems("space", uni) + "]"
}

// bracket reads the POSIX bracket expression opening at p[i] and returns
// the offset of its closing ']' and the RE2 class that matches the same.
func bracket(p string, i int, uni, icase bool) (int, string, error) {
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
				return 0, "", errBracket
			}
			name := p[j+2 : j+2+end]
			if kind == ':' {
				if _, ok := posixClasses[name]; !ok {
					return 0, "", errClassName
				}
				if icase && uni && (name == "upper" || name == "lower") {
					name = "alpha" // glibc's -i compares upper-cased text
				}
				b.WriteString(classItems(name, uni))
			} else {
				if utf8.RuneCountInString(name) != 1 {
					return 0, "", errCollate
				}
				b.WriteString(classRune(name))
			}
			j += 2 + end + 1
		case c == '-' && !first && j+1 < len(p) && p[j+1] != ']':
			// glibc's UTF-8 locale here has no order for a range with a
			// non-ASCII end.
			if uni && (p[j-1] >= 0x80 || p[j+1] >= 0x80) {
				return 0, "", errCollate
			}
			b.WriteByte('-')
		default:
			_, n := utf8.DecodeRuneInString(p[j:])
			b.WriteString(classRune(p[j : j+n]))
			j += n - 1
		}
		first = false
	}
	return 0, "", errBracket
}

// classRune escapes a class member for RE2.
func classRune(s string) string {
	switch s {
	case `\`, "[", "]", "^", "-":
		return `\` + s
	}
	return s
}
