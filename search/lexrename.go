package search

import (
	"math"
	"slices"

	"github.com/bcindex/bcindex/lexical"
)

// A copy named otherwise than its first copy reads the first copy's
// postings, which hold the first copy's name's tokens (lexrows.go): its
// frequencies are corrected by the difference of the two names' tokens.

// maxFixes bounds the forms a copyIndex keeps the renamed copies' fixes
// of.
const maxFixes = 4096

// renamedCopy is a visible copy named otherwise than its first copy, and
// the characters of the two names (nameChars), read on a query's first
// need of them.
type renamedCopy struct {
	row, first int32
	chars      uint64
}

// nameChars is the set of characters a token of name can hold: bit i for
// the ASCII letter i (either case) or digit 26+i, bit 62 for '_' and '-';
// every bit when name is not ASCII (lowercasing a non-ASCII letter may
// give an ASCII one).
func nameChars(name []byte) uint64 {
	var m uint64
	for _, b := range name {
		switch {
		case b >= 0x80:
			return math.MaxUint64
		case 'a' <= b && b <= 'z':
			m |= 1 << (b - 'a')
		case 'A' <= b && b <= 'Z':
			m |= 1 << (b - 'A')
		case '0' <= b && b <= '9':
			m |= 1 << (26 + b - '0')
		case b == '_' || b == '-':
			m |= 1 << 62
		}
	}
	return m
}

// renameFixes returns the renamed copies whose names' tokens hold form a
// different number of times, in row order, with the difference (the
// copy's count less its first copy's). Only the names whose characters
// could spell form are tokenised.
func (m *copyMap) renameFixes(form string) []rowFreq {
	if len(m.renamed) == 0 {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if f, ok := m.fixes[form]; ok {
		return f
	}
	if !m.chars {
		for i, rc := range m.renamed {
			m.renamed[i].chars = nameChars(m.seg.NameBytes(int(rc.row))) | nameChars(m.seg.NameBytes(int(rc.first)))
		}
		m.chars = true
	}
	want := nameChars([]byte(form))
	var out []rowFreq
	for _, rc := range m.renamed {
		if want&^rc.chars != 0 {
			continue
		}
		d := countToken(lexical.Tokens(string(m.seg.NameBytes(int(rc.row)))), form) -
			countToken(lexical.Tokens(string(m.seg.NameBytes(int(rc.first)))), form)
		if d != 0 {
			out = append(out, rowFreq{rc.row, d})
		}
	}
	if m.fixes == nil || len(m.fixes) >= maxFixes {
		m.fixes = map[string][]rowFreq{} // a kept view's queries ask ever more forms
	}
	m.fixes[form] = out
	return out
}

func countToken(tokens []string, t string) int32 {
	n := int32(0)
	for _, x := range tokens {
		if x == t {
			n++
		}
	}
	return n
}

// renameFix corrects the frequencies in buf (in row order) of the
// renamed copies in fix (in row order: row, the difference its name
// makes), keeping the row order: a row whose frequency falls to 0
// leaves, one that its first copy's postings left out (they lack the
// term, so its name alone holds it) joins.
func (m *copyMap) renameFix(buf []rowFreq, fix []rowFreq) []rowFreq {
	out := slices.Grow(m.tmp[:0], len(buf)+len(fix))
	j := 0
	for _, p := range buf {
		for ; j < len(fix) && fix[j].row < p.row; j++ {
			if fix[j].freq > 0 {
				out = append(out, fix[j])
			}
		}
		if j < len(fix) && fix[j].row == p.row {
			p.freq += fix[j].freq
			j++
		}
		if p.freq > 0 {
			out = append(out, p)
		}
	}
	for _, f := range fix[j:] {
		if f.freq > 0 {
			out = append(out, f)
		}
	}
	m.tmp = buf[:0] // the other buffer is the next call's scratch
	return out
}
