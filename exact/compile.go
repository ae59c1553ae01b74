package exact

import (
	"errors"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode/utf8"
)

// Options of a pattern set, as git grep's flags.
type Options struct {
	Fixed      bool // -F: patterns are literal strings
	IgnoreCase bool // -i
	Word       bool // -w: git grep's word rule (see the package comment)
	// Syntax is the regular expressions' language (not with Fixed):
	// Perl's as RE2 reads it by default, or POSIX basic or extended,
	// whose matches are the leftmost-longest.
	Syntax Syntax
	// ASCII is git grep's C locale (LC_ALL=C, or no UTF-8 locale): a
	// pattern's bytes are characters, "." and classes match one byte,
	// case folding and the POSIX classes are ASCII's. Otherwise a UTF-8
	// locale's: characters are UTF-8, Unicode's simple folding, and
	// Unicode classes for POSIX patterns.
	ASCII bool
}

// Matcher finds the lines that any of its patterns matches. It is safe for
// concurrent use: its methods keep their state on the stack.
type Matcher struct {
	opts  Options
	pats  []*pattern
	query *Query
}

// pattern is one compiled pattern: a finder of its leftmost match in a
// subject, and its trigram plan.
type pattern struct {
	finder
	// unicode, when set, replaces finder in content holding the Kelvin
	// sign or the long s: finder folds ASCII only, and Unicode folding
	// equates those two with k and s.
	unicode finder
	query   *Query
}

// finder finds one pattern's matches; no match holds '\n'.
type finder interface {
	// find returns the leftmost match in line, or -1, -1. With notBOL
	// the line is the rest of a line, so ^ must not match at its start:
	// git grep's REG_NOTBOL.
	find(line []byte, notBOL bool) (start, end int)
	// first returns the offset of the leftmost match in lines, a run of
	// whole lines, or -1.
	first(lines []byte) int
}

// syntaxFlags are Perl's flags minus OneLine (^ and $ are line anchors) and
// minus ClassNL (negated classes leave '\n' out).
const syntaxFlags = syntax.PerlX | syntax.UnicodeGroups

// Compile compiles one or more patterns (git grep -e P1 -e P2: a line
// matches if any matches). A pattern holding '\n' is split there into
// several patterns, as git grep splits it. Regex syntax is RE2 (Go's
// regexp/syntax with Perl flags); an invalid pattern gives a *PatternError
// naming the pattern and the byte offset of the fault.
func Compile(patterns []string, o Options) (*Matcher, error) {
	if len(patterns) == 0 {
		return nil, errors.New("compile patterns: no pattern given")
	}
	m := &Matcher{opts: o}
	var queries []*Query
	for _, whole := range patterns {
		for _, p := range strings.Split(whole, "\n") {
			cp, err := compileOne(p, o)
			if err != nil {
				return nil, err
			}
			m.pats = append(m.pats, cp)
			queries = append(queries, cp.query)
		}
	}
	m.query = orQueries(queries)
	return m, nil
}

func compileOne(p string, o Options) (*pattern, error) {
	if o.Fixed {
		return compileFixed(p, o)
	}
	flags := syntaxFlags
	if o.IgnoreCase {
		flags |= syntax.FoldCase
	}
	src, endZ := p, false
	if o.ASCII {
		src = bytesAsRunes(p)
	}
	if o.Syntax == PCRE {
		src, endZ = pcreAsGit(src, !o.ASCII, o.IgnoreCase)
	} else {
		pp, err := posixToRE2(src, o.Syntax, !o.ASCII, o.IgnoreCase)
		if err != nil {
			return nil, &PatternError{Pattern: p, Msg: err.Error(), Err: err, POSIX: true}
		}
		if pp.bounds && !pp.backrefs {
			if cp, ok := compileUnicodeBounds(p, pp.src, o); ok {
				return cp, nil
			}
		}
		if pp.bounds {
			pp.src = wordBounds(pp.src, "ascii")
		}
		if pp.backrefs {
			return compileBacktrack(p, pp.src, o, true)
		}
		src = pp.src
	}
	re, err := syntax.Parse(src, flags)
	if err != nil {
		var se *syntax.Error
		errors.As(err, &se)
		if se != nil && (o.Syntax != PCRE && se.Code == syntax.ErrInvalidRepeatSize || o.Syntax == PCRE && backtrackOnly(se)) {
			if o.Syntax == PCRE {
				src = pcreToBacktrack(src)
			}
			cp, berr := compileBacktrack(p, src, o, o.Syntax != PCRE)
			if berr == nil {
				return cp, nil
			}
			if bpe := (*PatternError)(nil); errors.As(berr, &bpe) && bpe.GitMsg != "" {
				return nil, bpe
			}
		}
		pe := newPatternError(p, err)
		if o.Syntax != PCRE && se != nil {
			pe.GitMsg, pe.POSIX = posixMessages[se.Code], true
		}
		return nil, pe
	}
	var plain *syntax.Regexp
	if o.IgnoreCase {
		plain, _ = syntax.Parse(src, syntaxFlags)
	}
	if o.IgnoreCase && o.ASCII {
		// Bytes do not fold in the C locale.
		re = refold(re, plain, 0x80, 0xFF, false)
	}
	h := how{longest: o.Syntax != PCRE, latin1: o.ASCII, endZ: endZ}
	cp, err := compileTree(p, re, h)
	if err == nil && o.IgnoreCase && !o.ASCII && o.Syntax != PCRE {
		// Content holding the Kelvin sign gets glibc's folding.
		var g *pattern
		if g, err = compileTree(p, refold(re, plain, '\u212A', '\u212A', true), h); err == nil {
			cp.unicode = g.finder
			if g.unicode != nil {
				cp.unicode = g.unicode // g.finder folds ASCII only
			}
		}
	}
	if err != nil {
		// RE2 refuses what it would have to expand too far
		// (x{1000}{1000}); the backtracking engine does not.
		if o.Syntax == PCRE {
			src = pcreToBacktrack(src)
		}
		if cp, berr := compileBacktrack(p, src, o, o.Syntax != PCRE); berr == nil {
			return cp, nil
		}
		return nil, err
	}
	return cp, nil
}

// compileFixed compiles a -F pattern. Without -i it is a byte string, found
// with bytes.Index. With -i it is a quoted literal for compileTree, so that
// folding follows Go's (and PCRE's) simple case folding. A pattern that is
// not valid UTF-8 cannot be a regexp: with -i it is matched with ASCII
// folding only (git grep refuses it under a UTF-8 locale).
func compileFixed(p string, o Options) (*pattern, error) {
	if !o.IgnoreCase {
		return &pattern{finder: newLiteral(p), query: literalQuery(p)}, nil
	}
	if !utf8.ValidString(p) || o.ASCII {
		// In the C locale -i folds ASCII letters only, as foldLiteral.
		return &pattern{finder: newFoldLiteral(p), query: literalQuery(p)}, nil
	}
	re, err := syntax.Parse(regexp.QuoteMeta(p), syntaxFlags|syntax.FoldCase)
	if err != nil {
		return nil, newPatternError(p, err)
	}
	return compileTree(p, re, how{})
}

// compileTree rewrites the parsed pattern src to line semantics, compiles
// it (for leftmost-longest matches with longest) and plans it.
func compileTree(src string, re *syntax.Regexp, how how) (*pattern, error) {
	re = lineSemantics(re)
	if how.latin1 {
		re = clampLatin1(re)
	}
	if hasTextAnchor(re) {
		a, err := newAnchored(re, how)
		if err != nil {
			return nil, newPatternError(src, err)
		}
		return &pattern{finder: a, query: planRegexp(re, how.latin1)}, nil
	}
	r, err := newRegex(re, how)
	if err != nil {
		return nil, newPatternError(src, err)
	}
	p := &pattern{finder: r, query: planRegexp(re, how.latin1)}
	// A literal's leftmost match is its first occurrence: find it with
	// bytes.Index or the folding search, many times faster than the
	// regexp engine (see BenchmarkLines). Otherwise a literal that every
	// match holds picks the lines worth running the regexp on.
	lit, folded := requiredLiteral(re)
	if w, ok := boundedLiteral(re); ok && (!how.latin1 || isASCII(w.lit.s)) {
		// \bword\b: the literal's occurrences, their edges checked, as
		// fast as the literal alone.
		p.finder = w
		return p, nil
	}
	switch {
	case lit == "" || strings.ContainsRune(lit, utf8.RuneError) || (folded || how.latin1) && !isASCII(lit):
	case re.Op == syntax.OpLiteral && !folded:
		p.finder = newLiteral(lit)
	case re.Op == syntax.OpLiteral:
		p.finder, p.unicode = newFoldLiteral(lit), r
	case !folded:
		r.required = newLiteral(lit)
	default:
		p.unicode = &regex{plain: r.plain, notBOL: r.notBOL, goPlain: r.goPlain, goNotBOL: r.goNotBOL, latin1: r.latin1}
		r.required = newFoldLiteral(lit)
	}
	return p, nil
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
