package exact

import (
	"regexp"
	"regexp/syntax"
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

// posixError is a pattern glibc's regcomp refuses, in its words.
type posixError string

func (e posixError) Error() string { return string(e) }

// The messages of glibc's regerror that git grep prints.
const (
	errBadRepeat   = posixError("Invalid preceding regular expression")
	errBraceOpen   = posixError("Unmatched \\{")
	errBraceBad    = posixError("Invalid content of \\{\\}")
	errTooBig      = posixError("Regular expression too big")
	errParenOpen   = posixError("Unmatched ( or \\(")
	errParenClose  = posixError("Unmatched ) or \\)")
	errBracket     = posixError("Unmatched [, [^, [:, [., or [=")
	errBackslash   = posixError("Trailing backslash")
	errBackref     = posixError("Invalid back reference")
	errCollate     = posixError("Invalid collation character")
	errClassName   = posixError("Invalid character class name")
	errRangeEnd    = posixError("Invalid range end")
	maxPOSIXRepeat = 0x7fff // glibc's RE_DUP_MAX
)

// posixMessages are glibc's words for what RE2's parser refuses in a
// rewritten POSIX pattern.
var posixMessages = map[syntax.ErrorCode]string{
	syntax.ErrInvalidCharRange:  string(errRangeEnd),
	syntax.ErrInvalidRepeatSize: string(errTooBig),
	syntax.ErrLarge:             string(errTooBig),
}

// posixPattern is a POSIX pattern rewritten for the engines.
type posixPattern struct {
	src string // RE2 syntax, also read alike by the backtracking engine
	// backrefs: the pattern holds a backreference, which only the
	// backtracking engine can match.
	backrefs bool
	// bounds: src holds word boundaries (\b \B \< \>) as marks, for
	// wordBounds to write as each engine needs them.
	bounds bool
}

// posixToRE2 rewrites a POSIX basic or extended regular expression (with
// GNU's extensions, as glibc's regcomp reads them) as RE2 syntax that
// matches the same lines:
//   - BRE: \( \) \{ \} \| \+ \? are operators and ( ) { } | + ? are
//     literal; * is literal at the start of the pattern, after \(, \| or
//     an anchoring ^; ^ anchors only at the start, after \( or \|, and $
//     only at the end, before \) or \|, both being literal elsewhere.
//   - ERE: ( ) { } | + ? * ^ $ are operators everywhere; a ')' that
//     closes nothing is literal.
//   - Both: a repeat of a repeat applies to it whole, so x+? is (x+)?
//     (not a lazy repeat), x** is (x*)* and x{2}{3} is x{6}; {,n} is
//     {0,n}; "." matches any character but NUL. In a bracket expression '\' is literal and [:class:], [=c=]
//     and [.c.] are read, c being one character; \< and \> (word start
//     and end) become \b; \w \W \b \B \s \S keep their GNU meaning (\s
//     is [[:space:]], so it holds the vertical tab); \` and \' are the
//     start and end of the subject (\A and \z: see Matcher for what the
//     subject is); \1 to \9 refer back to a group; any other escaped
//     character stands for itself.
//
// With uni (a UTF-8 locale) the classes and \w are Unicode's, as glibc's
// are there; otherwise ASCII's. With icase (-i) in a UTF-8 locale,
// [:upper:] and [:lower:] are [:alpha:], as glibc matches them there.
func posixToRE2(p string, s Syntax, uni, icase bool) (posixPattern, error) {
	ext := s == ERE
	var out []byte
	depth, groups := 0, 0
	var open []int // output offsets of the groups left open
	closed := map[int]bool{}
	res := posixPattern{}
	// atom is the output offset of the last atom, which a repeat applies
	// to, or -1 when there is none (pattern start, after a group opens
	// or an alternation); repeated says it has a repeat already.
	atom, repeated := -1, false
	setAtom := func() { atom, repeated = len(out), false }
	noAtom := func() { atom, repeated = -1, false }
	repeat := func(op string) {
		if repeated {
			out = append(out[:atom], append([]byte("(?:"), append(out[atom:], ')')...)...)
		}
		out = append(out, op...)
		repeated = true
	}
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '[':
			end, class, err := bracket(p, i, uni, icase)
			if err != nil {
				return res, err
			}
			setAtom()
			out = append(out, class...)
			i = end
		case c == '\\':
			if i+1 == len(p) {
				return res, errBackslash
			}
			i++
			e := p[i]
			switch {
			case !ext && e == '(':
				groups++
				depth++
				open = append(open, groups)
				out = append(out, '(')
				noAtom()
			case !ext && e == ')':
				if depth == 0 {
					return res, errParenClose
				}
				depth--
				closed[open[len(open)-1]] = true
				open = open[:len(open)-1]
				out = append(out, ')')
				atom, repeated = groupStart(out), false
			case !ext && e == '|':
				out = append(out, '|')
				noAtom()
			case !ext && e == '{':
				if atom < 0 || repeated {
					// glibc's BRE has \{ repeat an atom only, not a repeat.
					return res, errBadRepeat
				}
				iv, next, err := braced(p, i, `\}`)
				if err != nil {
					return res, err
				}
				repeat(iv)
				i = next
			case !ext && (e == '+' || e == '?'):
				if atom < 0 {
					setAtom()
					out = append(out, '\\', e)
					continue
				}
				repeat(string(e))
			case e >= '1' && e <= '9':
				n := int(e - '0')
				if !closed[n] {
					return res, errBackref
				}
				res.backrefs = true
				setAtom()
				out = append(out, '\\', e)
			case e == '<' || e == '>' || e == 'b' || e == 'B':
				noAtom()
				out = append(out, boundMark+string(e)+boundEnd...)
				res.bounds = true
			case e == 'w' || e == 'W' || e == 's' || e == 'S':
				setAtom()
				out = append(out, escapeClass(e, uni)...)
			case e == '`':
				noAtom()
				out = append(out, `\A`...)
			case e == '\'':
				noAtom()
				out = append(out, `\z`...)
			default:
				setAtom()
				_, n := utf8.DecodeRuneInString(p[i:])
				out = append(out, regexp.QuoteMeta(p[i:i+n])...)
				i += n - 1
			}
		case c == '^':
			if ext || atom < 0 && (len(out) == 0 || out[len(out)-1] == '(' || out[len(out)-1] == '|') {
				out = append(out, '^')
				if !ext {
					noAtom() // a * after an anchoring ^ is literal in a BRE
					continue
				}
				noAtom()
				continue
			}
			setAtom()
			out = append(out, `\^`...)
		case c == '$':
			if ext || i+1 == len(p) || strings.HasPrefix(p[i+1:], `\)`) || strings.HasPrefix(p[i+1:], `\|`) {
				out = append(out, '$')
				if ext {
					// glibc lets an ERE repeat an anchor: $* is ($)*.
					setAtom()
					out = out[:len(out)-1]
					out = append(out, '$')
				} else {
					noAtom()
				}
				continue
			}
			setAtom()
			out = append(out, `\$`...)
		case c == '*':
			if atom < 0 {
				if ext {
					return res, errBadRepeat
				}
				setAtom()
				out = append(out, `\*`...)
				continue
			}
			if repeated && !ext {
				return res, errBadRepeat // nor with *
			}
			repeat("*")
		case ext && (c == '+' || c == '?'):
			if atom < 0 {
				return res, errBadRepeat
			}
			repeat(string(c))
		case ext && c == '{':
			if atom < 0 {
				return res, errBadRepeat
			}
			iv, next, err := braced(p, i, "}")
			if err != nil {
				return res, err
			}
			repeat(iv)
			i = next
		case ext && c == '(':
			groups++
			depth++
			open = append(open, groups)
			out = append(out, '(')
			noAtom()
		case ext && c == ')':
			if depth == 0 {
				setAtom()
				out = append(out, `\)`...)
				continue
			}
			depth--
			closed[open[len(open)-1]] = true
			open = open[:len(open)-1]
			out = append(out, ')')
			atom, repeated = groupStart(out), false
		case ext && c == '|':
			out = append(out, '|')
			noAtom()
		case c == '.':
			// POSIX's "." matches no NUL (glibc's RE_DOT_NOT_NULL).
			setAtom()
			out = append(out, `[^\x00\n]`...)
		default:
			setAtom()
			_, n := utf8.DecodeRuneInString(p[i:])
			out = append(out, regexp.QuoteMeta(p[i:i+n])...)
			i += n - 1
		}
	}
	if depth > 0 {
		return res, errParenOpen
	}
	res.src = string(out)
	if res.bounds && !uni {
		res.src, res.bounds = wordBounds(res.src, "ascii"), false
	}
	return res, nil
}
