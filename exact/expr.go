package exact

import (
	"fmt"
	"strings"
)

// TokenKind is the kind of one element of a pattern expression.
type TokenKind int

const (
	TokPattern TokenKind = iota // -e PATTERN, -f lines, the positional pattern
	TokAnd                      // --and
	TokNot                      // --not
	TokOpen                     // (
	TokClose                    // )
)

// Token is one element of git grep's pattern expression, in command-line
// order. --or is not a token: juxtaposed patterns are or-ed anyway.
type Token struct {
	Kind    TokenKind
	Pattern string
	// Origin is where the pattern came from, as git's messages name it
	// ("-e option", "command line", "In 'FILE' at N"), or "".
	Origin string
}

// ExprError is a malformed pattern expression, in git's words.
type ExprError struct{ Msg string }

func (e *ExprError) Error() string { return e.Msg }

// node is a compiled expression: an atom (one pattern of the Matcher, by
// index), a negation, a conjunction or a disjunction.
type node struct {
	op          TokenKind // TokPattern: atom; TokNot; TokAnd; TokOpen stands for or
	atom        int
	left, right *node
}

const opOr = TokOpen

// parser compiles tokens as git's grep.c does (compile_pattern_or and
// below): or binds loosest, then --and, then --not; parentheses group;
// juxtaposition is or.
type parser struct {
	toks  []Token
	atoms []int // the atom index of each pattern token
	pos   int
}

func (p *parser) peek() *Token {
	if p.pos < len(p.toks) {
		return &p.toks[p.pos]
	}
	return nil
}

func (p *parser) or() (*node, error) {
	x, err := p.and()
	if err != nil || x == nil {
		return x, err
	}
	if t := p.peek(); t != nil && t.Kind != TokClose {
		y, err := p.or()
		if err != nil {
			return nil, err
		}
		if y == nil {
			return nil, &ExprError{"not a pattern expression " + tokenText(*t)}
		}
		return &node{op: opOr, left: x, right: y}, nil
	}
	return x, nil
}

func (p *parser) and() (*node, error) {
	x, err := p.not()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t != nil && t.Kind == TokAnd {
		if x == nil {
			return nil, &ExprError{"--and not preceded by pattern expression"}
		}
		p.pos++
		if p.peek() == nil {
			return nil, &ExprError{"--and not followed by pattern expression"}
		}
		y, err := p.and()
		if err != nil {
			return nil, err
		}
		if y == nil {
			return nil, &ExprError{"--and not followed by pattern expression"}
		}
		return &node{op: TokAnd, left: x, right: y}, nil
	}
	return x, nil
}

func (p *parser) not() (*node, error) {
	t := p.peek()
	if t == nil || t.Kind != TokNot {
		return p.atom()
	}
	p.pos++
	if p.peek() == nil {
		return nil, &ExprError{"--not not followed by pattern expression"}
	}
	x, err := p.not()
	if err != nil {
		return nil, err
	}
	if x == nil {
		return nil, &ExprError{"--not followed by non pattern expression"}
	}
	return &node{op: TokNot, left: x}, nil
}

func (p *parser) atom() (*node, error) {
	t := p.peek()
	if t == nil {
		return nil, nil
	}
	switch t.Kind {
	case TokPattern:
		n := &node{op: TokPattern, atom: p.atoms[p.pos]}
		p.pos++
		return n, nil
	case TokOpen:
		p.pos++
		x, err := p.or()
		if err != nil {
			return nil, err
		}
		if t := p.peek(); t == nil || t.Kind != TokClose {
			return nil, &ExprError{"unmatched parenthesis"}
		}
		p.pos++
		return x, nil
	}
	return nil, nil
}

func tokenText(t Token) string {
	switch t.Kind {
	case TokAnd:
		return "--and"
	case TokNot:
		return "--not"
	case TokOpen:
		return "("
	case TokClose:
		return ")"
	}
	return t.Pattern
}

// splitTokens splits each pattern holding '\n' into several pattern
// tokens, as git does when it reads a pattern, and returns the patterns
// in order with each token's atom index.
func splitTokens(toks []Token) (out []Token, patterns []string, atoms []int) {
	for _, t := range toks {
		if t.Kind != TokPattern {
			out = append(out, t)
			atoms = append(atoms, -1)
			continue
		}
		for _, p := range strings.Split(t.Pattern, "\n") {
			out = append(out, Token{Kind: TokPattern, Pattern: p, Origin: t.Origin})
			atoms = append(atoms, len(patterns))
			patterns = append(patterns, p)
		}
	}
	return out, patterns, atoms
}

// eval evaluates x on a line whose atoms' matches are hit.
func (x *node) eval(hit func(int) bool) bool {
	switch x.op {
	case TokPattern:
		return hit(x.atom)
	case TokNot:
		return !x.left.eval(hit)
	case TokAnd:
		return x.left.eval(hit) && x.right.eval(hit)
	}
	return x.left.eval(hit) || x.right.eval(hit)
}

// terms returns the top-level terms of an or-chain (the right spine of
// or nodes), which --all-match requires each to match some line.
func (x *node) terms() []*node {
	var out []*node
	for x.op == opOr {
		out = append(out, x.left)
		x = x.right
	}
	return append(out, x)
}

// plan is the trigram plan of x: a negation can hold anywhere, so it plans
// All.
func (x *node) plan(atoms []*pattern) *Query {
	switch x.op {
	case TokPattern:
		return atoms[x.atom].query
	case TokNot:
		return &Query{Op: All}
	case TokAnd:
		return andQueries([]*Query{x.left.plan(atoms), x.right.plan(atoms)})
	}
	return orQueries([]*Query{x.left.plan(atoms), x.right.plan(atoms)})
}

// andQueries is the And of plans.
func andQueries(qs []*Query) *Query {
	q := &Query{Op: And}
	for _, s := range qs {
		switch s.Op {
		case None:
			return s
		case All:
			continue
		}
		q.Sub = append(q.Sub, s)
	}
	return simplify(q)
}

// String renders x for tests, as git's --debug prints it.
func (x *node) String() string {
	switch x.op {
	case TokPattern:
		return fmt.Sprintf("%d", x.atom)
	case TokNot:
		return "(not " + x.left.String() + ")"
	case TokAnd:
		return "(and " + x.left.String() + " " + x.right.String() + ")"
	}
	return "(or " + x.left.String() + " " + x.right.String() + ")"
}
