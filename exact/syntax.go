package exact

import (
	"regexp/syntax"
	"slices"
	"unicode"
)

// lineSemantics rewrites a parsed pattern so that no match can hold '\n'
// and the text anchors are line anchors, as every subject it meets is a
// line or a run of whole lines:
//   - \A and \z (and POSIX's \` and \') stay the subject's start and
//     end: see anchored for what git takes the subject to be;
//   - a literal holding '\n' (written \n or \x0a) can match nothing;
//   - '\n' leaves every class, \s and [^…] included; an empty class
//     matches nothing;
//   - (?s). becomes a dot without '\n'.
//
// Nothing else changes, so leftmost-first matches stay those of the
// pattern as written.
func lineSemantics(re *syntax.Regexp) *syntax.Regexp {
	out := mapSubs(re, lineSemantics)
	switch re.Op {
	case syntax.OpEndText:
		out.Flags &^= syntax.WasDollar
	case syntax.OpAnyChar:
		out.Op = syntax.OpAnyCharNotNL
	case syntax.OpLiteral:
		if slices.Contains(re.Rune, '\n') {
			return &syntax.Regexp{Op: syntax.OpNoMatch}
		}
	case syntax.OpCharClass:
		out.Rune = removeRune(re.Rune, '\n')
		if len(out.Rune) == 0 {
			return &syntax.Regexp{Op: syntax.OpNoMatch}
		}
	}
	return out
}

// withoutBOL is re with ^ unable to match: for subjects that start
// mid-line, where git passes REG_NOTBOL. Lines hold no '\n', so ^ could
// only have matched at the subject's start.
func withoutBOL(re *syntax.Regexp) *syntax.Regexp {
	if re.Op == syntax.OpBeginLine {
		return &syntax.Regexp{Op: syntax.OpNoMatch}
	}
	return mapSubs(re, withoutBOL)
}

// mapSubs is a copy of re whose subexpressions are f of re's.
func mapSubs(re *syntax.Regexp, f func(*syntax.Regexp) *syntax.Regexp) *syntax.Regexp {
	out := *re
	out.Sub = make([]*syntax.Regexp, len(re.Sub))
	for i, s := range re.Sub {
		out.Sub[i] = f(s)
	}
	return &out
}

// removeRune removes r from a class's sorted [lo, hi] pairs.
func removeRune(ranges []rune, r rune) []rune {
	out := make([]rune, 0, len(ranges)+2)
	for i := 0; i+1 < len(ranges); i += 2 {
		lo, hi := ranges[i], ranges[i+1]
		if r < lo || r > hi {
			out = append(out, lo, hi)
			continue
		}
		if lo < r {
			out = append(out, lo, r-1)
		}
		if r < hi {
			out = append(out, r+1, hi)
		}
	}
	return out
}

// planRune maps a rune as the index folds text: ASCII upper case to lower
// case, and the Kelvin sign and the long s, which Unicode folding equates
// with k and s, to k and s (Trigrams indexes a copy of content with them
// replaced).
func planRune(r rune) rune {
	switch {
	case 'A' <= r && r <= 'Z':
		return r + 'a' - 'A'
	case r == '\u212A':
		return 'k'
	case r == '\u017F':
		return 's'
	}
	return r
}

// planTree rewrites re into a pattern over folded text for the trigram
// planner: every rune goes through planRune (a case-folded literal first
// expands to its fold orbit), so a match of re in content is a match of the
// result in the folded content. A literal or class that could match U+FFFD
// becomes any character, as Go's regexp matches each invalid UTF-8 byte
// as U+FFFD while the index holds the byte itself.
func planTree(re *syntax.Regexp, latin1 bool) *syntax.Regexp {
	switch re.Op {
	case syntax.OpLiteral:
		return planLiteral(re, latin1)
	case syntax.OpCharClass:
		if latin1 && len(re.Rune) > 0 && re.Rune[len(re.Rune)-1] >= 0x80 {
			return &syntax.Regexp{Op: syntax.OpAnyCharNotNL}
		}
		return planClass(re.Rune)
	}
	out := *re
	out.Sub = make([]*syntax.Regexp, len(re.Sub))
	for i, s := range re.Sub {
		out.Sub[i] = planTree(s, latin1)
	}
	return &out
}

func planLiteral(re *syntax.Regexp, latin1 bool) *syntax.Regexp {
	cat := &syntax.Regexp{Op: syntax.OpConcat}
	var run []rune
	flush := func() {
		if len(run) > 0 {
			cat.Sub = append(cat.Sub, &syntax.Regexp{Op: syntax.OpLiteral, Rune: run})
			run = nil
		}
	}
	for _, r := range re.Rune {
		// A byte of the C locale's pattern is planned as any character:
		// the index holds UTF-8 text's trigrams.
		if r == unicode.ReplacementChar || latin1 && r >= 0x80 {
			flush()
			cat.Sub = append(cat.Sub, &syntax.Regexp{Op: syntax.OpAnyCharNotNL})
			continue
		}
		if re.Flags&syntax.FoldCase == 0 {
			run = append(run, planRune(r))
			continue
		}
		orbit := []rune{planRune(r)}
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			orbit = append(orbit, planRune(f))
		}
		slices.Sort(orbit)
		orbit = slices.Compact(orbit)
		if len(orbit) == 1 {
			run = append(run, orbit[0])
			continue
		}
		flush()
		cat.Sub = append(cat.Sub, planClass(pairs(orbit)))
	}
	flush()
	if len(cat.Sub) == 1 {
		return cat.Sub[0]
	}
	if len(cat.Sub) == 0 {
		return &syntax.Regexp{Op: syntax.OpEmptyMatch}
	}
	return cat
}

// pairs turns runes into a class's [r, r] pairs.
func pairs(rs []rune) []rune {
	out := make([]rune, 0, 2*len(rs))
	for _, r := range rs {
		out = append(out, r, r)
	}
	return out
}

// planClass maps a class through planRune. A class of more than 100 runes
// becomes any character, as the planner would read it anyway.
func planClass(ranges []rune) *syntax.Regexp {
	var n rune
	for i := 0; i+1 < len(ranges); i += 2 {
		if ranges[i] <= unicode.ReplacementChar && unicode.ReplacementChar <= ranges[i+1] {
			return &syntax.Regexp{Op: syntax.OpAnyCharNotNL}
		}
		n += ranges[i+1] - ranges[i] + 1
	}
	if n > 100 {
		return &syntax.Regexp{Op: syntax.OpAnyCharNotNL}
	}
	var rs []rune
	for i := 0; i+1 < len(ranges); i += 2 {
		for r := ranges[i]; r <= ranges[i+1]; r++ {
			rs = append(rs, planRune(r))
		}
	}
	slices.Sort(rs)
	rs = slices.Compact(rs)
	if len(rs) == 1 {
		return &syntax.Regexp{Op: syntax.OpLiteral, Rune: rs}
	}
	return &syntax.Regexp{Op: syntax.OpCharClass, Rune: pairs(rs)}
}
