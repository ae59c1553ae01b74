package ngram

import (
	"slices"

	"github.com/bits-and-blooms/bitset"

	"github.com/bcindex/bcindex/exact"
)

// Candidates returns the documents that may hold a match of q: a superset
// of those that do. A nil set with a nil error means every document. When
// q is marked Lines, the document of a blob indexed in pieces is in the
// set only if one of its pieces is.
func (ix *Index) Candidates(q *exact.Query) (*bitset.BitSet, error) {
	e := evaluator{ix: ix}
	set, err := e.eval(q)
	if err == nil && set != nil && q.Lines {
		ix.byPieces(set)
	}
	return set, err
}

type evaluator struct {
	ix   *Index
	docs []uint32 // scratch
}

// eval returns q's documents; nil is every document.
func (e *evaluator) eval(q *exact.Query) (*bitset.BitSet, error) {
	switch q.Op {
	case exact.All:
		return e.and(nil, q)
	case exact.None:
		if len(q.Trigrams) == 0 && len(q.Sub) == 0 {
			return bitset.New(uint(e.ix.docs)), nil
		}
		return e.or(q)
	case exact.And:
		return e.and(nil, q)
	case exact.Or:
		return e.or(q)
	}
	return nil, nil
}

// and intersects q's trigrams, rarest first, then its subqueries. Trigrams
// and subqueries of an All node are required as for And (codesearch keeps
// All with conditions attached only after simplification removed them, so
// an All node with none is every document).
func (e *evaluator) and(set *bitset.BitSet, q *exact.Query) (*bitset.BitSet, error) {
	// Each trigram's entry and list size are looked up once, then the
	// lists are read rarest first, so that the set shrinks fastest.
	type entry struct{ i, size int }
	entries := make([]entry, 0, len(q.Trigrams))
	// A trigram with a byte other than text's holds for every binary
	// document too (see TextTrigram).
	var withBinary []bool
	for _, g := range q.Trigrams {
		i := e.ix.find(g)
		binary := !TextTrigram(g)
		if i < 0 && !binary {
			return bitset.New(uint(e.ix.docs)), nil
		}
		size := 0
		if i >= 0 {
			b, err := e.ix.listBytes(i)
			if err != nil {
				return nil, err
			}
			size = len(b)
		}
		entries = append(entries, entry{i, size})
		withBinary = append(withBinary, binary)
	}
	order := make([]int, len(entries))
	for k := range order {
		order[k] = k
	}
	slices.SortFunc(order, func(a, b int) int { return entries[a].size - entries[b].size })
	for _, k := range order {
		e.docs = e.docs[:0]
		if en := entries[k]; en.i >= 0 {
			var err error
			if e.docs, err = e.ix.appendList(e.docs, en.i); err != nil {
				return nil, err
			}
		}
		docs := bitset.New(uint(e.ix.docs))
		for _, d := range e.docs {
			docs.Set(uint(d))
		}
		if withBinary[k] {
			docs.InPlaceUnion(e.ix.binaryDocs())
		}
		if set == nil {
			set = docs
		} else {
			set.InPlaceIntersection(docs)
		}
		if set.None() {
			return set, nil
		}
	}
	for _, sub := range q.Sub {
		s, err := e.eval(sub)
		if err != nil {
			return nil, err
		}
		if s == nil {
			continue
		}
		if set == nil {
			set = s
		} else {
			set.InPlaceIntersection(s)
		}
		if set.None() {
			return set, nil
		}
	}
	return set, nil
}

// or unites q's trigrams and subqueries.
func (e *evaluator) or(q *exact.Query) (*bitset.BitSet, error) {
	set := bitset.New(uint(e.ix.docs))
	for _, g := range q.Trigrams {
		if !TextTrigram(g) {
			set.InPlaceUnion(e.ix.binaryDocs())
		}
		i := e.ix.find(g)
		if i < 0 {
			continue
		}
		var err error
		if e.docs, err = e.ix.appendList(e.docs[:0], i); err != nil {
			return nil, err
		}
		for _, d := range e.docs {
			set.Set(uint(d))
		}
	}
	for _, sub := range q.Sub {
		s, err := e.eval(sub)
		if err != nil {
			return nil, err
		}
		if s == nil {
			return nil, nil
		}
		set.InPlaceUnion(s)
	}
	return set, nil
}

// TextTrigram reports whether a (folded) trigram is made of text bytes:
// printable ASCII, tab, line feed and carriage return. A binary blob's
// document holds only those of its trigrams (random bytes would add
// millions of rare trigrams to the file), so any other trigram of a query
// is taken to be in every binary document.
func TextTrigram(g uint32) bool {
	return textByte(byte(g>>16)) && textByte(byte(g>>8)) && textByte(byte(g))
}

func textByte(b byte) bool {
	return b >= 0x20 && b < 0x7f || b == '\t' || b == '\n' || b == '\r'
}
