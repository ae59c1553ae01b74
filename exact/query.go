package exact

import (
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"

	"github.com/google/codesearch/index"
)

// Query is the trigram plan: a boolean formula over folded trigrams that
// every file holding a match satisfies. It is a necessary condition only:
// a candidate file must still be verified with the Matcher.
type Query struct {
	Op       QueryOp
	Trigrams []uint32 // And: all of them; Or: any of them (with Sub)
	Sub      []*Query
	// Lines, on a plan's root, says that every match it stands for lies
	// within one line (no match holds '\n'), so that a file holds one
	// only if one of its lines satisfies the plan: a blob whose trigrams
	// are indexed in pieces cut at line ends (package ngram) is then a
	// candidate only when one of its pieces is.
	Lines bool
}

// QueryOp is a Query's operator.
type QueryOp int

const (
	All  QueryOp = iota // no usable trigram: every file is a candidate
	None                // no file can match
	And                 // every trigram and every Sub
	Or                  // some trigram or some Sub
)

// Query returns the matcher's trigram plan: the Or of its patterns' plans,
// marked Lines, as no match holds '\n'.
func (m *Matcher) Query() *Query { return lineQuery(m.query) }

// lineQuery is a copy of q's root marked Lines (the plans below stay
// unmarked: another plan may share them).
func lineQuery(q *Query) *Query {
	c := *q
	c.Lines = true
	return &c
}

// Eval evaluates q against a predicate telling whether a file holds a
// trigram.
func (q *Query) Eval(has func(uint32) bool) bool {
	switch q.Op {
	case All:
		return true
	case None:
		return false
	case And:
		for _, t := range q.Trigrams {
			if !has(t) {
				return false
			}
		}
		for _, s := range q.Sub {
			if !s.Eval(has) {
				return false
			}
		}
		return true
	}
	for _, t := range q.Trigrams {
		if has(t) {
			return true
		}
	}
	for _, s := range q.Sub {
		if s.Eval(has) {
			return true
		}
	}
	return false
}

// String renders q as codesearch does: "+" for All, "-" for None, an And
// as space-separated terms and an Or as terms joined by "|" in brackets.
func (q *Query) String() string {
	switch q.Op {
	case All:
		return "+"
	case None:
		return "-"
	}
	var terms []string
	for _, t := range q.Trigrams {
		terms = append(terms, strconv.Quote(string([]byte{byte(t >> 16), byte(t >> 8), byte(t)})))
	}
	for _, s := range q.Sub {
		terms = append(terms, s.String())
	}
	if q.Op == And {
		return strings.Join(terms, " ")
	}
	return "(" + strings.Join(terms, "|") + ")"
}

// planRegexp plans a pattern already rewritten by lineSemantics with
// codesearch's planner, run on the pattern mapped to folded text.
func planRegexp(re *syntax.Regexp, latin1 bool) *Query {
	return convert(index.RegexpQuery(planTree(re, latin1).Simplify()))
}

// literalQuery plans a fixed string: all its folded trigrams.
func literalQuery(s string) *Query {
	if len(s) < 3 {
		return &Query{Op: All}
	}
	q := &Query{Op: And}
	for i := 0; i+3 <= len(s); i++ {
		q.Trigrams = append(q.Trigrams, trigram(s[i], s[i+1], s[i+2]))
	}
	slices.Sort(q.Trigrams)
	q.Trigrams = slices.Compact(q.Trigrams)
	return q
}

// convert turns a codesearch query into a Query: it folds each trigram's
// bytes and drops repeats. A trigram holding '\n' is read as true (no line
// match holds one): dropped from an And, and it makes an Or true.
func convert(cq *index.Query) *Query {
	switch cq.Op {
	case index.QAll:
		return &Query{Op: All}
	case index.QNone:
		return &Query{Op: None}
	}
	q := &Query{Op: And}
	if cq.Op == index.QOr {
		q.Op = Or
	}
	for _, s := range cq.Trigram {
		if strings.IndexByte(s, '\n') >= 0 {
			if q.Op == Or {
				return &Query{Op: All}
			}
			continue
		}
		q.Trigrams = append(q.Trigrams, trigram(s[0], s[1], s[2]))
	}
	slices.Sort(q.Trigrams)
	q.Trigrams = slices.Compact(q.Trigrams)
	for _, s := range cq.Sub {
		sub := convert(s)
		switch {
		case q.Op == Or && sub.Op == All, q.Op == And && sub.Op == None:
			return sub
		case q.Op == Or && sub.Op == None, q.Op == And && sub.Op == All:
			continue
		}
		q.Sub = append(q.Sub, sub)
	}
	return simplify(q)
}

// orQueries is the Or of the patterns' plans.
func orQueries(qs []*Query) *Query {
	if len(qs) == 1 {
		return qs[0]
	}
	q := &Query{Op: Or}
	for _, s := range qs {
		switch s.Op {
		case All:
			return s
		case None:
			continue
		}
		q.Sub = append(q.Sub, s)
	}
	return simplify(q)
}

// simplify collapses an And or Or with nothing in it (true or false) or
// with one term only.
func simplify(q *Query) *Query {
	switch n := len(q.Trigrams) + len(q.Sub); {
	case n == 0 && q.Op == And:
		return &Query{Op: All}
	case n == 0 && q.Op == Or:
		return &Query{Op: None}
	case n == 1 && len(q.Sub) == 1:
		return q.Sub[0]
	case n == 1:
		q.Op = And
	}
	return q
}
