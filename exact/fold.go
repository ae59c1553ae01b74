package exact

import (
	"regexp/syntax"
	"slices"
)

// refold adjusts a pattern parsed with Go's case folding (folded) to a
// locale's folding under -i, for the runes from lo to hi, which fold as
// they do not in Go's: in the C locale (bytes from 0x80 to 0xFF as runes)
// they do not fold at all. In a UTF-8 locale glibc folds the Kelvin sign
// with k in a literal, but no class holds it unless written in it, and a
// k right before $ does not match it (splitK: glibc folds a copy of the
// line, where the sign is shorter, and $ misses its end). plain is the
// same pattern parsed without folding: a class holds those runes when it
// does there.
func refold(folded, plain *syntax.Regexp, lo, hi rune, splitK bool) *syntax.Regexp {
	out := *folded
	switch {
	case splitK && folded.Op == syntax.OpConcat:
		out.Sub = make([]*syntax.Regexp, len(folded.Sub))
		for i, s := range folded.Sub {
			var p *syntax.Regexp
			if plain != nil && plain.Op == folded.Op && len(plain.Sub) == len(folded.Sub) {
				p = plain.Sub[i]
			}
			out.Sub[i] = refold(s, p, lo, hi, false)
			n := len(s.Rune)
			if s.Op == syntax.OpLiteral && s.Flags&syntax.FoldCase != 0 && n > 0 && (s.Rune[n-1] == 'k' || s.Rune[n-1] == 'K') &&
				i+1 < len(folded.Sub) && (folded.Sub[i+1].Op == syntax.OpEndLine || folded.Sub[i+1].Op == syntax.OpEndText) {
				lit := *s
				lit.Rune = s.Rune[:n-1]
				out.Sub[i] = &syntax.Regexp{Op: syntax.OpConcat, Sub: []*syntax.Regexp{&lit, {Op: syntax.OpCharClass, Rune: []rune{'K', 'K', 'k', 'k'}}}}
			}
		}
		return &out
	case folded.Op == syntax.OpLiteral && folded.Flags&syntax.FoldCase != 0:
		cat := &syntax.Regexp{Op: syntax.OpConcat}
		for _, r := range folded.Rune {
			switch {
			case lo <= r && r <= hi:
				cat.Sub = append(cat.Sub, &syntax.Regexp{Op: syntax.OpLiteral, Rune: []rune{r}})
			default:
				cat.Sub = append(cat.Sub, &syntax.Regexp{Op: syntax.OpLiteral, Rune: []rune{r}, Flags: folded.Flags})
			}
		}
		if len(cat.Sub) == 1 {
			return cat.Sub[0]
		}
		return cat
	case folded.Op == syntax.OpCharClass && plain != nil && plain.Op == syntax.OpCharClass:
		var rs []rune
		for i := 0; i+1 < len(folded.Rune); i += 2 {
			a, b := folded.Rune[i], folded.Rune[i+1]
			if a < lo {
				rs = append(rs, a, min(b, lo-1))
			}
			if b > hi {
				rs = append(rs, max(a, hi+1), b)
			}
		}
		for i := 0; i+1 < len(plain.Rune); i += 2 {
			a, b := max(plain.Rune[i], lo), min(plain.Rune[i+1], hi)
			if a <= b {
				rs = append(rs, a, b)
			}
		}
		if len(rs) == 0 {
			return &syntax.Regexp{Op: syntax.OpNoMatch}
		}
		out.Rune = mergeRanges(rs)
	}
	out.Sub = make([]*syntax.Regexp, len(folded.Sub))
	for i, s := range folded.Sub {
		var p *syntax.Regexp
		if plain != nil && plain.Op == folded.Op && len(plain.Sub) == len(folded.Sub) {
			p = plain.Sub[i]
		}
		out.Sub[i] = refold(s, p, lo, hi, splitK)
	}
	return &out
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
