package exact

import (
	"fmt"
	"regexp/syntax"
	"strings"
	"unicode/utf8"

	"github.com/dlclark/regexp2"
)

// backtrack finds with a backtracking engine (github.com/dlclark/regexp2,
// in its RE2-compatible syntax) what RE2 cannot: backreferences,
// lookahead and lookbehind, atomic groups, possessive repeats, and
// repeats too large for RE2. It runs line by line on the files the
// trigram plan leaves (for such patterns usually every file), so it is
// much slower than RE2; a pattern that backtracks exponentially is as slow
// as in PCRE. Its matches are leftmost-first, also for POSIX patterns.
type backtrack struct {
	plain, notBOL *regexp2.Regexp
	latin1        bool // a line's bytes are its characters (the C locale)
	// invalid, when set, stands for each invalid UTF-8 byte of a line,
	// which is otherwise a barrier no match crosses.
	invalid rune
}

// compileBacktrack compiles src, a pattern in regexp2's syntax, for the
// pattern p.
func compileBacktrack(p, src string, o Options, posix bool) (*pattern, error) {
	opts := regexp2.RegexOptions(regexp2.RE2)
	if o.IgnoreCase {
		opts |= regexp2.IgnoreCase
	}
	if !posix && variableLookbehind(src) {
		msg := "lookbehind assertion is not fixed length"
		return nil, &PatternError{Pattern: p, Msg: msg, GitMsg: msg}
	}
	b := &backtrack{latin1: o.ASCII}
	var err error
	if b.plain, err = regexp2.Compile(src, opts); err != nil {
		return nil, &PatternError{Pattern: p, Msg: err.Error(), Err: err, POSIX: posix}
	}
	if b.notBOL, err = regexp2.Compile(withoutCaret(src), opts); err != nil {
		return nil, &PatternError{Pattern: p, Msg: err.Error(), Err: err, POSIX: posix}
	}
	return &pattern{finder: b, query: &Query{Op: All}}, nil
}

// find runs the engine on the line's runes; an invalid UTF-8 byte is one
// U+FFFD.
func (b *backtrack) find(line []byte, notBOL bool) (int, int) {
	skip := 0
	for notBOL && !b.latin1 && skip < len(line) && line[skip]&0xC0 == 0x80 {
		skip++
	}
	line = line[skip:]
	re := b.plain
	if notBOL {
		re = b.notBOL
	}
	if b.latin1 {
		m, err := re.FindRunesMatch(latin1Runes(line))
		if err != nil || m == nil {
			return -1, -1
		}
		return skip + m.Index, skip + m.Index + m.Length
	}
	if b.invalid != 0 {
		runes := make([]rune, 0, len(line))
		offs := make([]int, 0, len(line)+1)
		for i := 0; i < len(line); {
			r, n := utf8.DecodeRune(line[i:])
			if r == utf8.RuneError && n == 1 {
				r = b.invalid
			}
			runes = append(runes, r)
			offs = append(offs, i)
			i += n
		}
		offs = append(offs, len(line))
		if m, err := re.FindRunesMatch(runes); err == nil && m != nil {
			return skip + offs[m.Index], skip + offs[m.Index+m.Length]
		}
		return -1, -1
	}
	// An invalid UTF-8 byte is a barrier no match crosses, as in PCRE's
	// invalid-UTF mode: each valid run is a subject of its own.
	for start := 0; start <= len(line); {
		end := start
		runes := make([]rune, 0, len(line)-start)
		offs := make([]int, 0, len(line)-start+1)
		for end < len(line) {
			r, n := utf8.DecodeRune(line[end:])
			if r == utf8.RuneError && n == 1 {
				break
			}
			runes = append(runes, r)
			offs = append(offs, end)
			end += n
		}
		offs = append(offs, end)
		if start > 0 {
			re = b.notBOL
		}
		if m, err := re.FindRunesMatch(runes); err == nil && m != nil {
			return skip + offs[m.Index], skip + offs[m.Index+m.Length]
		}
		if end == len(line) {
			break
		}
		start = end + 1
	}
	return -1, -1
}

func (b *backtrack) first(lines []byte) int {
	for pos := 0; pos < len(lines); {
		end := lineEnd(lines, pos)
		if s, _ := b.find(lines[pos:end], false); s >= 0 {
			return pos + s
		}
		pos = end + 1
	}
	return -1
}

// withoutCaret makes every ^ outside a class unable to match: the pattern
// for a subject that starts mid-line (git's REG_NOTBOL).
func withoutCaret(src string) string {
	var b strings.Builder
	for i := 0; i < len(src); i++ {
		switch c := src[i]; {
		case c == '\\' && i+1 < len(src):
			b.WriteString(src[i : i+2])
			i++
		case c == '[':
			end := classEnd(src, i)
			b.WriteString(src[i:min(end+1, len(src))])
			i = end
		case c == '^':
			b.WriteString("(?!)")
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// backtrackOnly reports whether RE2 refuses a Perl pattern for a feature
// the backtracking engine has.
func backtrackOnly(se *syntax.Error) bool {
	switch se.Code {
	case syntax.ErrInvalidEscape, syntax.ErrInvalidPerlOp, syntax.ErrInvalidNamedCapture,
		syntax.ErrInvalidRepeatOp, syntax.ErrInvalidRepeatSize, syntax.ErrLarge, syntax.ErrNestingDepth:
		return true
	}
	return false
}

// pcreToBacktrack rewrites what PCRE has and regexp2 spells otherwise or
// lacks: \h \v \R (horizontal and vertical space, a line break), \x{…},
// \Q…\E, \g references, (?P=name), and possessive repeats (x*+ is the
// atomic group (?>x*)).
func pcreToBacktrack(p string) string {
	if k := topLevelKeep(p); k >= 0 {
		// X\KY reports the match from \K on: Y where X ends, which is
		// (?<=X)Y; it matches the same lines.
		p = "(?<=" + p[:k] + ")" + p[k+2:]
	}
	const hspace = `\t \u00A0\u1680\u180E\u2000-\u200A\u202F\u205F\u3000`
	const vspace = `\n\u000B\f\r\u0085\u2028\u2029`
	var out []byte
	var groups []int // output offsets of the open groups
	atom := -1
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\' && i+1 < len(p):
			e := p[i+1]
			start := len(out)
			i++
			switch e {
			case 'h':
				out = append(out, "["+hspace+"]"...)
			case 'H':
				out = append(out, "[^"+hspace+"]"...)
			case 'v':
				out = append(out, "["+vspace+"]"...)
			case 'V':
				out = append(out, "[^"+vspace+"]"...)
			case 'R':
				out = append(out, `(?:\r\n|[`+vspace+`])`...)
			case 'Q':
				end := strings.Index(p[i+1:], `\E`)
				lit := p[i+1:]
				if end >= 0 {
					lit = p[i+1 : i+1+end]
					i += end + 2
				} else {
					i = len(p)
				}
				for _, r := range lit {
					out = append(out, quoteRune(r)...)
				}
			case 'x':
				if i+1 < len(p) && p[i+1] == '{' {
					if end := strings.IndexByte(p[i:], '}'); end > 0 {
						out = append(out, fmt.Sprintf(`\u%04s`, strings.ToUpper(p[i+2:i+end]))...)
						i += end
						break
					}
				}
				out = append(out, '\\', e)
			case 'g':
				j := i + 1
				if j < len(p) && p[j] == '{' {
					if end := strings.IndexByte(p[j:], '}'); end > 0 {
						out = append(out, `\k<`+p[j+1:j+end]+`>`...)
						i = j + end
						break
					}
				}
				n := j
				for n < len(p) && p[n] >= '0' && p[n] <= '9' {
					n++
				}
				out = append(out, `\`+p[j:n]...)
				i = n - 1
			default:
				out = append(out, '\\', e)
			}
			atom = start
		case c == '[':
			end := classEnd(p, i)
			atom = len(out)
			cls := p[i:min(end+1, len(p))]
			cls = strings.ReplaceAll(cls, `\h`, hspace)
			out = append(out, cls...)
			i = end
		case c == '(':
			if strings.HasPrefix(p[i:], "(?P=") {
				if end := strings.IndexByte(p[i:], ')'); end > 0 {
					atom = len(out)
					out = append(out, `\k<`+p[i+4:i+end]+`>`...)
					i += end
					break
				}
			}
			groups = append(groups, len(out))
			out = append(out, c)
			atom = -1
		case c == ')':
			out = append(out, c)
			atom = -1
			if len(groups) > 0 {
				atom = groups[len(groups)-1]
				groups = groups[:len(groups)-1]
			}
		case c == '*' || c == '+' || c == '?' || c == '{':
			q := string(c)
			if c == '{' {
				end := strings.IndexByte(p[i:], '}')
				if end < 0 {
					out = append(out, c)
					break
				}
				q = p[i : i+end+1]
				i += end
			}
			if i+1 < len(p) && p[i+1] == '+' && atom >= 0 {
				out = append(out[:atom], append([]byte("(?>"), append(out[atom:], q+")"...)...)...)
				i++
			} else {
				out = append(out, q...)
				if i+1 < len(p) && p[i+1] == '?' {
					out = append(out, '?')
					i++
				}
			}
			atom = -1
		case c == '|':
			out = append(out, c)
			atom = -1
		default:
			atom = len(out)
			_, n := utf8.DecodeRuneInString(p[i:])
			out = append(out, p[i:i+n]...)
			i += n - 1
		}
	}
	return string(out)
}

func quoteRune(r rune) string {
	if strings.ContainsRune(`\.+*?()|[]{}^$#&-~ `, r) {
		return `\` + string(r)
	}
	return string(r)
}

// topLevelKeep returns the offset of a \K outside any group, class or
// alternation, or -1.
func topLevelKeep(p string) int {
	depth, at := 0, -1
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			if i+1 < len(p) && p[i+1] == 'K' && depth == 0 && at < 0 {
				at = i
			}
			i++
		case '[':
			i = classEnd(p, i)
		case '(':
			depth++
		case ')':
			depth--
		case '|':
			if depth == 0 {
				return -1
			}
		}
	}
	return at
}
