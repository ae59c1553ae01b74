package search

import (
	"bytes"
	"cmp"
	"math"
	"math/bits"
	"slices"
	"sort"

	"github.com/bits-and-blooms/bitset"

	"github.com/bcindex/bcindex/lexical"
	"github.com/bcindex/bcindex/segment"
)

// A segment's postings (lex.bin) are stored once per content: only a
// row that is the first copy of its content in the segment (the copies
// column) has postings, its copies keep their lengths only. The text arm
// reads them for the visible rows: a visible copy makes its first copy's
// postings count, for the copy, as if the copy had its own. A content is
// thus scored once per visible row that holds it, with the document
// frequencies, lengths and row order that postings stored per row gave.
//
// A row's terms are its name's tokens, then its text's (the indexer's
// lexical.AppendTokens(lexical.Tokens(name), text)), and the content hash
// covers the text only: a copy may be named otherwise than its first copy
// (a block's name carries its line, "if@L120", and moves with it; a file
// chunk is named after its file). Such a copy's frequencies are its first
// copy's corrected by the difference of the names' tokens, read from the
// chunk table, so that every row scores as if it had postings of its own.

// copyMap maps one segment's postings to its visible rows.
type copyMap struct {
	// score holds the rows whose postings a visible row reads: the
	// visible rows that are their own first copy and the first copies of
	// the others. It is the view's allow itself when every visible row
	// is its own first copy (copies is then empty).
	score *bitset.BitSet
	// copies are the visible rows that are not their own first copy, by
	// first copy, then row.
	copies []copyRow
	// renamed holds, by term, the copies among them named otherwise than
	// their first copy whose name's tokens hold the term a different
	// number of times, and that difference.
	renamed map[string][]rowFreq
}

type copyRow struct{ first, row int32 }

// rowFreq is a visible row holding a term, and the term's frequency.
type rowFreq struct{ row, freq int32 }

// copyMaps returns each segment's copyMap for the rows visible now, made
// on first use after textArm resets it.
func (v *view) copyMaps() []copyMap {
	if v.lexMaps != nil {
		return v.lexMaps
	}
	maps := make([]copyMap, len(v.snap.Segments))
	for s, seg := range v.snap.Segments {
		allow := v.allow[s]
		var cs []copyRow
		for w, word := range allow.Words() {
			for ; word != 0; word &= word - 1 {
				r := w*64 + bits.TrailingZeros64(word)
				if c := seg.FirstCopy(r); c != r {
					cs = append(cs, copyRow{int32(c), int32(r)})
				}
			}
		}
		maps[s].score = allow
		if len(cs) > 0 {
			score := allow.Clone()
			for _, c := range cs {
				score.Set(uint(c.first))
			}
			slices.SortFunc(cs, func(a, b copyRow) int {
				return cmp.Or(cmp.Compare(a.first, b.first), cmp.Compare(a.row, b.row))
			})
			maps[s] = copyMap{score: score, copies: cs, renamed: renamedCopies(seg, cs)}
		}
	}
	v.lexMaps = maps
	return maps
}

// renamedCopies is copyMap.renamed for the copies cs of segment seg.
func renamedCopies(seg *segment.Segment, cs []copyRow) map[string][]rowFreq {
	var out map[string][]rowFreq
	diff := map[string]int32{}
	for _, c := range cs {
		name, first := seg.NameBytes(int(c.row)), seg.NameBytes(int(c.first))
		if bytes.Equal(name, first) {
			continue
		}
		clear(diff)
		for _, t := range lexical.Tokens(string(name)) {
			diff[t]++
		}
		for _, t := range lexical.Tokens(string(first)) {
			diff[t]--
		}
		for t, d := range diff {
			if d != 0 {
				if out == nil {
					out = map[string][]rowFreq{}
				}
				out[t] = append(out[t], rowFreq{c.row, d})
			}
		}
	}
	return out
}

// formPostings returns, in row order, the visible rows of segment s
// whose content holds form, each with the form's frequency (appended to
// buf[:0]).
func (v *view) formPostings(s int, form string, buf []rowFreq) []rowFreq {
	buf = buf[:0]
	m := v.copyMaps()[s]
	it := v.snap.Segments[s].Lex.Iter(form)
	if len(m.copies) == 0 {
		for it.Next() {
			if r := it.Row(); m.score.Test(uint(r)) {
				buf = append(buf, rowFreq{int32(r), int32(min(it.Freq(), math.MaxInt32))})
			}
		}
		return buf
	}
	allow, cs := v.allow[s], m.copies
	sorted, j := true, 0
	add := func(r, f int32) {
		if n := len(buf); n > 0 && buf[n-1].row > r {
			sorted = false
		}
		buf = append(buf, rowFreq{r, f})
	}
	for it.Next() {
		c := it.Row()
		if !m.score.Test(uint(c)) {
			continue
		}
		f := int32(min(it.Freq(), math.MaxInt32))
		if allow.Test(uint(c)) {
			add(int32(c), f)
		}
		j += sort.Search(len(cs)-j, func(k int) bool { return cs[j+k].first >= int32(c) })
		for ; j < len(cs) && cs[j].first == int32(c); j++ {
			add(cs[j].row, f)
		}
	}
	if fix := m.renamed[form]; len(fix) > 0 {
		buf = renameFix(buf, fix)
		sorted = false
	}
	if !sorted {
		slices.SortFunc(buf, func(a, b rowFreq) int { return cmp.Compare(a.row, b.row) })
	}
	return buf
}

// renameFix corrects the frequencies in buf of the renamed copies in fix
// (row, the difference its name makes): a row whose frequency falls to 0
// leaves, one that its first copy's postings left out (they lack the
// term, so its name alone holds it) joins.
func renameFix(buf []rowFreq, fix []rowFreq) []rowFreq {
	delta := make(map[int32]int32, len(fix))
	for _, f := range fix {
		delta[f.row] = f.freq
	}
	out := buf[:0]
	for _, p := range buf {
		if d, ok := delta[p.row]; ok {
			p.freq += d
			delete(delta, p.row)
		}
		if p.freq > 0 {
			out = append(out, p)
		}
	}
	for _, f := range fix {
		if d, ok := delta[f.row]; ok && d > 0 {
			out = append(out, rowFreq{f.row, d})
		}
	}
	return out
}
