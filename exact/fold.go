package exact

import (
	"regexp/syntax"
	"slices"
)

// asciiFolding makes a -i pattern fold as git grep does in the C locale:
// ASCII letters only. Go's folding, which cp was compiled with, also
// equates k and s with the Kelvin sign and the long s and folds non-ASCII
// letters. For a pattern of ASCII only the difference needs content
// holding one of those two runes, which cp.unicode is for; other
// patterns are matched with ASCII folding throughout.
func asciiFolding(cp *pattern, src string, how how) error {
	re, err := syntax.Parse(src, syntaxFlags)
	if err != nil {
		return err
	}
	re = lineSemantics(asciiFold(re))
	if how.latin1 {
		re = clampLatin1(re)
	}
	var f finder
	if hasTextAnchor(re) {
		f, err = newAnchored(re, how)
	} else {
		f, err = newRegex(re, how)
	}
	if err != nil {
		return err
	}
	if isASCII(src) {
		if _, ok := cp.finder.(*foldLiteral); !ok || cp.unicode == nil {
			cp.unicode = f
		} else {
			cp.unicode = nil // foldLiteral folds ASCII only
		}
		return nil
	}
	cp.finder, cp.unicode = f, nil
	return nil
}

// asciiFold rewrites re so that ASCII letters match either case: each
// becomes a class of both, and classes gain the other case of their
// ASCII letters.
func asciiFold(re *syntax.Regexp) *syntax.Regexp {
	out := *re
	out.Sub = make([]*syntax.Regexp, len(re.Sub))
	for i, s := range re.Sub {
		out.Sub[i] = asciiFold(s)
	}
	switch re.Op {
	case syntax.OpLiteral:
		cat := &syntax.Regexp{Op: syntax.OpConcat}
		for _, r := range re.Rune {
			if o := otherCase(r); o != r {
				cat.Sub = append(cat.Sub, &syntax.Regexp{Op: syntax.OpCharClass, Rune: []rune{min(r, o), min(r, o), max(r, o), max(r, o)}})
				continue
			}
			cat.Sub = append(cat.Sub, &syntax.Regexp{Op: syntax.OpLiteral, Rune: []rune{r}})
		}
		if len(cat.Sub) == 1 {
			return cat.Sub[0]
		}
		return cat
	case syntax.OpCharClass:
		rs := slices.Clone(re.Rune)
		for i := 0; i+1 < len(re.Rune); i += 2 {
			for _, c := range [][2]rune{{'a', 'z'}, {'A', 'Z'}} {
				lo, hi := max(re.Rune[i], c[0]), min(re.Rune[i+1], c[1])
				if lo <= hi {
					rs = append(rs, otherCase(lo), otherCase(hi))
				}
			}
		}
		out.Rune = mergeRanges(rs)
	}
	return &out
}

func otherCase(r rune) rune {
	switch {
	case 'a' <= r && r <= 'z':
		return r - 'a' + 'A'
	case 'A' <= r && r <= 'Z':
		return r - 'A' + 'a'
	}
	return r
}

// mergeRanges sorts a class's [lo, hi] pairs and merges those that touch.
func mergeRanges(rs []rune) []rune {
	type rng struct{ lo, hi rune }
	var list []rng
	for i := 0; i+1 < len(rs); i += 2 {
		list = append(list, rng{rs[i], rs[i+1]})
	}
	slices.SortFunc(list, func(a, b rng) int { return int(a.lo - b.lo) })
	var out []rune
	for _, r := range list {
		if n := len(out); n > 0 && r.lo <= out[n-1]+1 {
			out[n-1] = max(out[n-1], r.hi)
			continue
		}
		out = append(out, r.lo, r.hi)
	}
	return out
}
