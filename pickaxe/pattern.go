package pickaxe

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"unicode/utf8"
)

// Matcher is what the pickaxe needs of a pattern: git's count of a blob's
// occurrences (for -S) and whether one line of a diff matches (for -G).
// It is small so that an indexed matcher can take the place of the
// standard-library one below.
type Matcher interface {
	// Count returns the number of non-overlapping occurrences in content,
	// counted as git's diffcore-pickaxe contains() counts them.
	Count(content []byte) int
	// MatchLine reports whether a line (with its "\n", if it has one)
	// holds a match.
	MatchLine(line []byte) bool
}

// Pattern says what to look for.
type Pattern struct {
	Text       string
	Regex      bool // Text is a regular expression (-G, or -S --pickaxe-regex)
	IgnoreCase bool
}

// ErrEmptyPattern is returned for a pattern of no bytes, which git refuses too.
var ErrEmptyPattern = errors.New("empty pattern")

// Compile returns the standard-library Matcher of p.
func Compile(p Pattern) (Matcher, error) {
	if p.Text == "" {
		return nil, ErrEmptyPattern
	}
	if !p.Regex && (!p.IgnoreCase || isASCII(p.Text)) {
		return newFixed(p.Text, p.IgnoreCase), nil
	}
	expr := p.Text
	if !p.Regex {
		// git folds the case of a non-ASCII needle through a regex too.
		expr = regexp.QuoteMeta(expr)
	}
	return compileRegex(expr, p.IgnoreCase)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// fixed counts a literal as git's kwset does: leftmost occurrences, each
// search resuming after the previous match; -i folds ASCII letters only.
type fixed struct {
	needle []byte
	fold   bool
}

func newFixed(s string, fold bool) *fixed {
	f := &fixed{needle: []byte(s), fold: fold}
	if fold {
		f.needle = asciiLower(f.needle)
	}
	return f
}

func (f *fixed) Count(content []byte) int {
	if f.fold {
		content = asciiLower(content)
	}
	return bytes.Count(content, f.needle)
}

func (f *fixed) MatchLine(line []byte) bool {
	if f.fold {
		line = asciiLower(line)
	}
	return bytes.Contains(line, f.needle)
}

// asciiLower returns b with A-Z lowered, as git's tolower_trans_tbl does:
// other bytes, UTF-8 included, are left as they are, so lengths never change.
func asciiLower(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return out
}

// regex matches as git's regcomp(REG_EXTENDED|REG_NEWLINE) does, in RE2
// syntax: '.' and bracketed negated classes never match a newline, '^' and
// '$' match at line boundaries, and a match is the leftmost-longest.
type regex struct {
	re *regexp.Regexp
	// must is a literal every match holds (nil: none known), looked for
	// before the regex runs; local says the pattern counts the same in a
	// text as in its lines (see lineLocal).
	must  []byte
	local bool
	// notBOL is re with '^' unable to match, for the rest of a line after
	// a match: git searches again with REG_NOTBOL, so '^' then matches
	// only after a newline. It is nil when the pattern has no '^'.
	notBOL *regexp.Regexp
}

// posixParse: Perl syntax, multi-line anchors, and classes that exclude
// "\n" as REG_NEWLINE wants.
const posixParse = syntax.Perl &^ syntax.OneLine &^ syntax.ClassNL

func compileRegex(expr string, fold bool) (*regex, error) {
	flags := syntax.Flags(posixParse)
	if fold {
		flags |= syntax.FoldCase
	}
	tree, err := syntax.Parse(posixWordAnchors(expr), flags)
	if err != nil {
		return nil, fmt.Errorf("pattern %q: %w", expr, err)
	}
	re, err := regexp.Compile(tree.String())
	if err != nil {
		return nil, fmt.Errorf("pattern %q: %w", expr, err)
	}
	re.Longest()
	r := &regex{re: re, must: mustLiteral(tree), local: minLen(tree) > 0 && !spansLines(tree)}
	if dropBeginLine(tree) {
		if r.notBOL, err = regexp.Compile(tree.String()); err != nil {
			return nil, fmt.Errorf("pattern %q: %w", expr, err)
		}
		r.notBOL.Longest()
	}
	return r, nil
}

// posixWordAnchors rewrites GNU's \< and \> (start and end of a word),
// which RE2 lacks, as \b.
func posixWordAnchors(expr string) string {
	if !strings.Contains(expr, `\<`) && !strings.Contains(expr, `\>`) {
		return expr
	}
	var b strings.Builder
	for i := 0; i < len(expr); i++ {
		if expr[i] == '\\' && i+1 < len(expr) {
			switch expr[i+1] {
			case '<', '>':
				b.WriteString(`\b`)
			default:
				b.WriteString(expr[i : i+2])
			}
			i++
			continue
		}
		b.WriteByte(expr[i])
	}
	return b.String()
}

// dropBeginLine makes every '^' of tree unable to match and reports
// whether it found one.
func dropBeginLine(re *syntax.Regexp) bool {
	if re.Op == syntax.OpBeginLine || re.Op == syntax.OpBeginText {
		*re = syntax.Regexp{Op: syntax.OpNoMatch}
		return true
	}
	found := false
	for _, s := range re.Sub {
		found = dropBeginLine(s) || found
	}
	return found
}

// Count follows git's contains(): after a match the search resumes at its
// end (one byte further for an empty match), and at the very end of the
// content nothing more is counted.
func (r *regex) Count(content []byte) int {
	n, pos := 0, 0
	for pos < len(content) {
		start, end, ok := r.next(content, pos)
		if !ok {
			break
		}
		pos = end
		if pos < len(content) && start == end {
			pos++
		}
		n++
	}
	return n
}

// next finds the leftmost-longest match at or after pos as regexec with
// REG_NOTBOL would on content[pos:]: '^' matches after a newline but not
// at pos itself, unless a newline precedes it.
func (r *regex) next(content []byte, pos int) (start, end int, ok bool) {
	if pos > 0 && content[pos-1] != '\n' && r.notBOL != nil {
		// The rest of this line, where '^' cannot match; then from the
		// next line's start, where the whole pattern applies.
		nl := bytes.IndexByte(content[pos:], '\n')
		lineEnd := len(content)
		if nl >= 0 {
			lineEnd = pos + nl + 1
		}
		if loc := r.notBOL.FindIndex(content[pos:lineEnd]); loc != nil {
			return pos + loc[0], pos + loc[1], true
		}
		if nl < 0 {
			return 0, 0, false
		}
		// The next line starts after the newline, even at the very end,
		// where '^' still matches the empty rest.
		pos = lineEnd
	}
	loc := r.re.FindIndex(content[pos:])
	if loc == nil {
		return 0, 0, false
	}
	return pos + loc[0], pos + loc[1], true
}

func (r *regex) MatchLine(line []byte) bool {
	if r.must != nil && !bytes.Contains(line, r.must) {
		return false
	}
	return r.re.Match(line)
}

// lineLocal reports whether m counts the same in a text as in its lines,
// so that a change's effect on a blob's count is its effect on the lines
// it added and removed: no match can hold a newline, be empty (git counts
// empty matches at places a line's end does not show) or anchor at the
// start or end of the whole text.
func lineLocal(m Matcher) bool {
	switch m := m.(type) {
	case *fixed:
		return !bytes.Contains(m.needle, []byte{'\n'})
	case *regex:
		return m.local
	}
	return false
}

// minLen is the fewest bytes a match of re can span (more than any text
// for one that never matches).
func minLen(re *syntax.Regexp) int {
	const never = 1 << 30
	switch re.Op {
	case syntax.OpNoMatch:
		return never
	case syntax.OpLiteral:
		n := 0
		for _, r := range re.Rune {
			n += utf8.RuneLen(r)
		}
		return n
	case syntax.OpCharClass, syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		return 1
	case syntax.OpCapture, syntax.OpPlus:
		return minLen(re.Sub[0])
	case syntax.OpRepeat:
		return min(never, re.Min*minLen(re.Sub[0]))
	case syntax.OpConcat:
		n := 0
		for _, s := range re.Sub {
			n = min(never, n+minLen(s))
		}
		return n
	case syntax.OpAlternate:
		n := never
		for _, s := range re.Sub {
			n = min(n, minLen(s))
		}
		return n
	}
	return 0 // empty match, anchors, star, quest
}

// spansLines reports whether a match of re could hold a newline, or
// anchors at the start or end of the whole text.
func spansLines(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpLiteral:
		return slices.Contains(re.Rune, '\n')
	case syntax.OpCharClass:
		for i := 0; i+1 < len(re.Rune); i += 2 {
			if re.Rune[i] <= '\n' && '\n' <= re.Rune[i+1] {
				return true
			}
		}
		return false
	case syntax.OpAnyChar, syntax.OpBeginText, syntax.OpEndText:
		return true
	}
	for _, s := range re.Sub {
		if spansLines(s) {
			return true
		}
	}
	return false
}

// mustLiteral returns the longest literal that every match of re holds
// as it is (case-sensitively), or nil.
func mustLiteral(re *syntax.Regexp) []byte {
	for re.Op == syntax.OpCapture {
		re = re.Sub[0]
	}
	lit := func(r *syntax.Regexp) []byte {
		if r.Op != syntax.OpLiteral || r.Flags&syntax.FoldCase != 0 {
			return nil
		}
		return []byte(string(r.Rune))
	}
	if re.Op != syntax.OpConcat {
		return lit(re)
	}
	var best []byte
	for _, s := range re.Sub {
		if l := lit(s); len(l) > len(best) {
			best = l
		}
	}
	return best
}
