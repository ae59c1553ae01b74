package exact

import (
	"regexp/syntax"
	"strings"
)

// unicodeBounds finds a POSIX pattern with word boundaries in a UTF-8
// locale, where glibc's word characters are Unicode's letters and digits
// and RE2's \b knows ASCII's only: an ASCII line is matched by RE2 with
// its \b (the same there), any other by the backtracking engine with the
// boundaries as lookaround. Runs of lines are searched with RE2 for the
// pattern without its boundaries, which matches wherever the pattern
// does, and the lines it finds are checked.
type unicodeBounds struct {
	ascii, wide finder
	loose       finder
	// edges: the pattern holds \< or \>, which RE2 reads as \b: every
	// line goes to the backtracking engine.
	edges bool
}

// compileUnicodeBounds compiles src, a rewritten POSIX pattern holding
// boundary marks, as unicodeBounds; ok is false when it cannot (the
// caller then uses RE2's \b).
func compileUnicodeBounds(p, src string, o Options) (*pattern, bool) {
	flags := syntaxFlags
	if o.IgnoreCase {
		flags |= syntax.FoldCase
	}
	re, err := syntax.Parse(wordBounds(src, "ascii"), flags)
	if err != nil {
		return nil, false
	}
	h := how{longest: true}
	cp, err := compileTree(p, re, h)
	if err != nil {
		return nil, false
	}
	if _, anchored := cp.finder.(*anchored); anchored {
		return nil, false
	}
	loose, err := syntax.Parse(wordBounds(src, "none"), flags)
	if err != nil {
		return nil, false
	}
	// compileTree finds a literal with bytes.Index where it can.
	lp, err := compileTree(p, loose, h)
	if err != nil {
		return nil, false
	}
	lr := lp.finder
	if lp.unicode != nil {
		lr = lp.unicode // lp.finder folds ASCII only
	}
	wide, err := compileBacktrack(p, wordBounds(src, "unicode"), o, true)
	if err != nil {
		return nil, false
	}
	if b, ok := wide.finder.(*backtrack); ok {
		b.invalid = invalidRune
	}
	// A line with the Kelvin sign or the long s is not ASCII: cp.unicode
	// is not needed.
	edges := strings.Contains(src, boundMark+"<") || strings.Contains(src, boundMark+">")
	cp.finder = &unicodeBounds{ascii: cp.finder, wide: wide.finder, loose: lr, edges: edges}
	cp.unicode = nil
	return cp, true
}

func (u *unicodeBounds) find(line []byte, notBOL bool) (int, int) {
	if !u.edges && isASCIIBytes(line) {
		return u.ascii.find(line, notBOL)
	}
	return u.wide.find(line, notBOL)
}

func (u *unicodeBounds) first(lines []byte) int {
	for pos := 0; pos < len(lines); {
		s := u.loose.first(lines[pos:])
		if s < 0 {
			return -1
		}
		start := pos + s
		for start > pos && lines[start-1] != '\n' {
			start--
		}
		end := lineEnd(lines, start)
		if m, _ := u.find(lines[start:end], false); m >= 0 {
			return start + m
		}
		pos = end + 1
	}
	return -1
}

// invalidRune is what unicodeBounds' backtracking engine reads an invalid
// UTF-8 byte as.
const invalidRune = '\uE003'

// The marks of a word boundary in a rewritten pattern: boundMark, the
// letter of its escape, boundEnd. Private-use runes, which patterns do
// not hold.
const (
	boundMark = "\uE000\uE001"
	boundEnd  = "\uE002"
)

// wordBounds writes src's word boundaries as RE2's ASCII \b and \B
// (which \< and \> are too) with mode "ascii"; as nothing, a superset of
// the pattern's matches, with "none"; and with "unicode" as lookaround
// over Unicode's word characters (glibc's in a UTF-8 locale) for the
// backtracking engine, \< and \> exactly.
func wordBounds(src, mode string) string {
	// glibc takes an invalid UTF-8 byte for a word character here: it
	// is invalidRune to the backtracking engine.
	const w = `[\p{L}0-9_\x{E003}]`
	for _, k := range "<>bB" {
		var with string
		switch mode {
		case "ascii":
			with = `\b`
			if k == 'B' {
				with = `\B`
			}
		case "unicode":
			with = map[rune]string{
				'<': `(?<!` + w + `)(?=` + w + `)`,
				'>': `(?<=` + w + `)(?!` + w + `)`,
				'b': `(?:(?<=` + w + `)(?!` + w + `)|(?<!` + w + `)(?=` + w + `))`,
				'B': `(?:(?<=` + w + `)(?=` + w + `)|(?<!` + w + `)(?!` + w + `))`,
			}[k]
		}
		src = strings.ReplaceAll(src, boundMark+string(k)+boundEnd, with)
	}
	return src
}
