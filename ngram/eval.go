package ngram

import (
	"slices"

	"github.com/bits-and-blooms/bitset"

	"github.com/bcindex/bcindex/exact"
)

// Candidates returns the documents that may hold a match of q: a superset
// of those that do. A nil set with a nil error means every document.
func (ix *Index) Candidates(q *exact.Query) (*bitset.BitSet, error) {
	e := evaluator{ix: ix}
	return e.eval(q)
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
	for _, g := range q.Trigrams {
		i := e.ix.find(g)
		if i < 0 {
			return bitset.New(uint(e.ix.docs)), nil
		}
		b, err := e.ix.listBytes(i)
		if err != nil {
			return nil, err
		}
		entries = append(entries, entry{i, len(b)})
	}
	slices.SortFunc(entries, func(a, b entry) int { return a.size - b.size })
	for _, en := range entries {
		var err error
		if e.docs, err = e.ix.appendList(e.docs[:0], en.i); err != nil {
			return nil, err
		}
		set = intersect(set, e.docs, e.ix.docs)
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

// intersect returns set ∩ docs (set nil: docs).
func intersect(set *bitset.BitSet, docs []uint32, n int) *bitset.BitSet {
	out := bitset.New(uint(n))
	for _, d := range docs {
		if set == nil || set.Test(uint(d)) {
			out.Set(uint(d))
		}
	}
	return out
}
