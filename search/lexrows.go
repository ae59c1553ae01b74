package search

import (
	"math"
	"math/bits"
	"slices"
	"sort"
	"sync"

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
// chunk table, so that every row scores as if it had postings of its own;
// the copies column marks these copies (Segment.CopyOf), so the visible
// copies are listed without reading a name (lexrename.go).

// copyMap maps one segment's postings to the rows a query sees.
type copyMap struct {
	*copyIndex
	seg   *segment.Segment
	allow *bitset.BitSet
	// Scratch of formPostings: the frequency a copy got, by its place
	// among the copies in row order (0: none), the places set, and the
	// postings being ordered.
	slot []int32
	hits []int32
	tmp  []rowFreq
}

// copyIndex is what copyMap derives from one segment's visible rows. A
// kept view's queries usually see the same rows, so the last one made is
// kept (copyCache).
type copyIndex struct {
	// firsts holds the first copies of the visible rows that are not
	// their own: a posting of a visible row or of one of these counts.
	// It is nil when every visible row is its own first copy (and copies
	// is empty).
	firsts *bitset.BitSet
	// rows are the visible rows that are not their own first copy, in
	// row order; copies the same by first copy, then row, each with its
	// place in rows.
	rows   []int32
	copies []copyRow
	// renamed are the visible copies named otherwise than their first
	// copy, in row order (the copies column marks them).
	renamed []renamedCopy

	mu    sync.Mutex
	chars bool                 // whether renamed holds the names' characters
	fixes map[string][]rowFreq // by form: renamed copies and the difference their names make
}

// copyRow is a visible copy: its first copy, and its place in
// copyIndex.rows.
type copyRow struct{ first, at int32 }

// rowFreq is a visible row holding a term, and the term's frequency.
type rowFreq struct{ row, freq int32 }

// copyCache keeps, in the store's view, the copyIndex of each segment
// for the visible rows allow, those of the last query that made them.
type copyCache struct {
	mu    sync.Mutex
	allow [][]uint64
	idx   []*copyIndex
}

type copyCacheKey struct{}

// copyMaps returns each segment's copyMap for the rows visible now, made
// on first use after textArm resets it.
func (v *view) copyMaps() []*copyMap {
	if v.lexMaps != nil {
		return v.lexMaps
	}
	var idx []*copyIndex
	if v.memo != nil {
		cc := v.memo.Memo(copyCacheKey{}, func() any { return new(copyCache) }).(*copyCache)
		cc.mu.Lock()
		if idx = cc.idx; !sameRows(cc.allow, v.allow) {
			idx = v.copyIndexes()
			cc.idx, cc.allow = idx, make([][]uint64, len(v.allow))
			for s, a := range v.allow {
				cc.allow[s] = slices.Clone(a.Words())
			}
		}
		cc.mu.Unlock()
	} else {
		idx = v.copyIndexes()
	}
	maps := make([]*copyMap, len(idx))
	for s, x := range idx {
		maps[s] = &copyMap{copyIndex: x, seg: v.snap.Segments[s], allow: v.allow[s]}
	}
	v.lexMaps = maps
	return maps
}

// sameRows reports whether the visible rows allow are those of words.
func sameRows(words [][]uint64, allow []*bitset.BitSet) bool {
	if words == nil || len(words) != len(allow) {
		return false
	}
	for s, a := range allow {
		w := a.Words()
		n := min(len(w), len(words[s]))
		if !slices.Equal(w[:n], words[s][:n]) || slices.ContainsFunc(w[n:], nonZero) || slices.ContainsFunc(words[s][n:], nonZero) {
			return false
		}
	}
	return true
}

func nonZero(w uint64) bool { return w != 0 }

// copyIndexes makes each segment's copyIndex for the rows visible now,
// from the copies column alone (a copy's name is read only when the
// column marks it renamed, and only when a query needs it).
func (v *view) copyIndexes() []*copyIndex {
	out := make([]*copyIndex, len(v.snap.Segments))
	for s, seg := range v.snap.Segments {
		allow := v.allow[s]
		m := &copyIndex{}
		maxFirst := int32(0)
		for w, word := range allow.Words() {
			for ; word != 0; word &= word - 1 {
				r := w*64 + bits.TrailingZeros64(word)
				c, renamed := seg.CopyOf(r)
				if c == r {
					continue
				}
				if m.firsts == nil {
					m.firsts = bitset.New(allow.Len())
				}
				m.firsts.Set(uint(c))
				m.copies = append(m.copies, copyRow{int32(c), int32(len(m.rows))})
				m.rows = append(m.rows, int32(r))
				maxFirst = max(maxFirst, int32(c))
				if renamed {
					m.renamed = append(m.renamed, renamedCopy{row: int32(r), first: int32(c)})
				}
			}
		}
		// Listed by row; a stable sort by first copy keeps the rows of
		// one first copy in order.
		m.copies = radixSort(m.copies, make([]copyRow, len(m.copies)), func(c copyRow) uint32 { return uint32(c.first) }, uint32(maxFirst))
		out[s] = m
	}
	return out
}

// formPostings returns, in row order, the visible rows of segment s
// whose content holds form, each with the form's frequency (appended to
// buf[:0]); it is the segment's postings of form.
//
// The postings name first copies in row order; the visible ones go to
// buf as they come, and the frequency of each copy of one is put at the
// copy's place among the copies in row order (slot), which are then
// merged into buf: postings in row order without sorting them.
func (v *view) formPostings(s int, form string, it lexical.Iterator, buf []rowFreq) []rowFreq {
	buf = slices.Grow(buf[:0], it.Len())
	m := v.copyMaps()[s]
	if m.firsts == nil {
		for it.Next() {
			if r := it.Row(); m.allow.Test(uint(r)) {
				buf = append(buf, rowFreq{int32(r), int32(min(it.Freq(), math.MaxInt32))})
			}
		}
		return buf
	}
	if len(m.slot) < len(m.rows) {
		m.slot = make([]int32, len(m.rows))
	}
	hits := m.hits[:0]
	cs, j := m.copies, 0
	for it.Next() {
		c := int32(it.Row())
		f := int32(min(it.Freq(), math.MaxInt32))
		if m.allow.Test(uint(c)) {
			buf = append(buf, rowFreq{c, f})
		}
		if !m.firsts.Test(uint(c)) {
			continue
		}
		// The postings ascend, so the copies of c are at or after j:
		// gallop, then search.
		if j < len(cs) && cs[j].first < c {
			step := 1
			for j+step < len(cs) && cs[j+step].first < c {
				step *= 2
			}
			lo, hi := j+step/2+1, min(j+step+1, len(cs))
			j = lo + sort.Search(hi-lo, func(k int) bool { return cs[lo+k].first >= c })
		}
		for ; j < len(cs) && cs[j].first == c; j++ {
			m.slot[cs[j].at] = f
			hits = append(hits, cs[j].at)
		}
	}
	m.hits = hits
	if len(hits) > 0 {
		buf = m.mergeCopies(buf, hits)
	}
	if fix := m.renameFixes(form); len(fix) > 0 {
		buf = m.renameFix(buf, fix)
	}
	return buf
}
