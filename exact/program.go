package exact

import (
	"bytes"
)

// ProgramOptions are the options of git grep that decide which lines of
// a file are selected, beyond each pattern's own (Options).
type ProgramOptions struct {
	Options
	Invert   bool // -v: select the lines that do not match
	AllMatch bool // --all-match: a file matches only if every top-level or-term matches some line
	// After (-A) and FunctionContext (-W) are the lines git shows after a
	// hit, which it checks one by one rather than looking ahead: that
	// changes what \A and \z match (see anchored).
	After           int
	FunctionContext bool
}

// Program selects lines as git grep does from a pattern expression: the
// patterns (-e, -f, the positional one) combined with --and, --not,
// parentheses and juxtaposition (or), then -v and --all-match. It is safe
// for concurrent use.
type Program struct {
	m    *Matcher // one pattern per atom, in command-line order
	expr *node    // nil: the or of every pattern
	opts ProgramOptions
}

// CompileProgram compiles a pattern expression. A malformed expression is
// an *ExprError in git's words; an invalid pattern a *PatternError.
func CompileProgram(toks []Token, o ProgramOptions) (*Program, error) {
	toks, patterns, atoms := splitTokens(toks)
	if len(patterns) == 0 {
		// git parses the expression first: --and alone is its error.
		ps := &parser{toks: toks, atoms: atoms}
		if _, err := ps.or(); err != nil {
			return nil, err
		}
		return nil, &ExprError{"no pattern given"}
	}
	m, err := Compile(patterns, o.Options)
	if err != nil {
		return nil, err
	}
	p := &Program{m: m, opts: o}
	extended := o.AllMatch
	for _, t := range toks {
		extended = extended || t.Kind != TokPattern
	}
	if !extended {
		return p, nil
	}
	ps := &parser{toks: toks, atoms: atoms}
	if p.expr, err = ps.or(); err != nil {
		return nil, err
	}
	if t := ps.peek(); t != nil {
		return nil, &ExprError{"incomplete pattern expression: " + tokenText(*t)}
	}
	if p.expr == nil {
		return nil, &ExprError{"no pattern given"}
	}
	return p, nil
}

// Query is the program's trigram plan: every selected line satisfies it
// (marked Lines), or with --all-match, every file that matches (not
// marked: the terms may match on different lines).
func (p *Program) Query() *Query {
	switch {
	case p.opts.Invert:
		return &Query{Op: All}
	case p.expr == nil:
		return p.m.Query()
	case p.opts.AllMatch:
		var qs []*Query
		for _, t := range p.expr.terms() {
			qs = append(qs, t.plan(p.m.pats))
		}
		return andQueries(qs)
	}
	return lineQuery(p.expr.plan(p.m.pats))
}

// Simple reports whether the program is a plain list of patterns, without
// an expression, -v or --all-match: its lines are those of Matcher.
func (p *Program) Simple() bool {
	return p.expr == nil && !p.opts.Invert && !p.opts.AllMatch
}

// LineLocal reports whether the lines the program selects in a run of
// whole lines of a file, matched on its own (its line numbers counted
// from its first), are those it selects there in the whole file, so that
// a file can be matched piece by piece: not with -v or --all-match, nor
// with an anchored pattern (\A, \z: git's look-ahead makes them depend
// on where it starts), nor with a pattern matching an empty line (git
// may find a line after the final newline, see phantom).
func (p *Program) LineLocal() bool {
	if p.opts.Invert || p.opts.AllMatch || p.m.anchored() {
		return false
	}
	for _, f := range p.m.finders(nil) {
		if s, _ := f.find(nil, false); s >= 0 {
			return false
		}
	}
	return true
}

// Matcher is the program's patterns, each an atom, in order.
func (p *Program) Matcher() *Matcher { return p.m }

// Lines calls yield for every selected line of content, in order, until
// yield returns false; a Line's Spans are not set. With --all-match, a
// file in which some top-level term matches no line has no selected line.
func (p *Program) Lines(content []byte, yield func(Line) bool) {
	if p.Simple() && p.m.anchored() {
		p.lookAheadLines(content, yield)
		return
	}
	if p.Simple() {
		last, more := 0, true
		p.m.scan(content, p.m.finders(content), func(number, start, end int, _ []bool) bool {
			last = number
			more = yield(Line{Number: number, Start: start, End: end})
			return more
		})
		// The look-ahead that finds it starts after the last hit, at a
		// line of the file: none is left after a hit on the last line.
		if lines := bytes.Count(content, []byte{'\n'}); more && last < lines && p.phantom(content) {
			yield(Line{Number: lines + 1, Start: len(content), End: len(content)})
		}
		return
	}
	if p.opts.AllMatch && !p.allMatch(content) {
		return
	}
	// Lines where no atom matches all take the same value.
	none := p.value(func(int) bool { return false })
	number, pos := 1, 0 // the next line not yet passed, and where it starts
	// fill yields the lines from pos up to (not including) the line at
	// upto, when lines without a match are selected.
	fill := func(upto int) bool {
		for pos < upto {
			end := lineEnd(content, pos)
			if none && !yield(Line{Number: number, Start: pos, End: end}) {
				return false
			}
			number++
			pos = end + 1
		}
		return true
	}
	stopped := false
	p.m.scan(content, p.m.lineFinders(content), func(n, start, end int, hits []bool) bool {
		if !none {
			number, pos = n, start
		} else if !fill(start) {
			stopped = true
			return false
		}
		if p.value(func(i int) bool { return hits[i] }) && !yield(Line{Number: n, Start: start, End: end}) {
			stopped = true
			return false
		}
		number, pos = n+1, end+1
		return true
	})
	if !stopped {
		fill(len(content))
	}
}

// lookAheadLines is git grep's loop over a file's lines (grep.c,
// grep_source_1) for a plain list of patterns: outside the lines shown
// after a hit it looks ahead for the earliest match of any pattern in the
// rest of the file, and checks the line holding it; within them it checks
// each line. It is used for anchored patterns, whose matches depend on
// it; the scan gives the same lines for the others, faster.
func (p *Program) lookAheadLines(content []byte, yield func(Line) bool) {
	fs := p.m.finders(content)
	number, pos, lastHit := 1, 0, 0
	check := func(start, end int) bool {
		for _, f := range fs {
			if s, _ := p.m.findOne(f, content[start:end]); s >= 0 {
				lastHit = number
				return yield(Line{Number: number, Start: start, End: end})
			}
		}
		return true
	}
	for pos < len(content) {
		if lastHit == 0 || !p.opts.FunctionContext && number > lastHit+p.opts.After {
			best := -1
			for _, f := range fs {
				if s := f.first(content[pos:]); s >= 0 && (best < 0 || s < best) {
					best = s
				}
			}
			if best < 0 {
				return
			}
			start := pos + bytes.LastIndexByte(content[pos:pos+best], '\n') + 1
			number += bytes.Count(content[pos:start], []byte{'\n'})
			pos = start
		}
		end := lineEnd(content, pos)
		if !check(pos, end) {
			return
		}
		number++
		pos = end + 1
	}
}

// phantom reports whether git grep finds a line after a file's final
// newline. It does with basic and extended patterns (not -P, -F or -w) of
// which one matches an empty line, such as ^$: its look-ahead searches the
// rest of the file as one string, where such a pattern matches at the
// very end, and takes that for a line. Programs with an expression or -v
// do not look ahead.
func (p *Program) phantom(content []byte) bool {
	o := p.m.opts
	if len(content) == 0 || content[len(content)-1] != '\n' || o.Fixed || o.Syntax == PCRE || o.Word {
		return false
	}
	for _, f := range p.m.finders(nil) {
		if s, _ := f.find(nil, false); s >= 0 {
			return true
		}
	}
	return false
}

// value is whether a line is selected, given which atoms match it.
func (p *Program) value(hit func(int) bool) bool {
	v := false
	if p.expr == nil {
		for i := range p.m.pats {
			if hit(i) {
				v = true
				break
			}
		}
	} else {
		v = p.expr.eval(hit)
	}
	return v != p.opts.Invert
}

// allMatch is --all-match's first pass: whether each top-level or-term
// of the expression is true on some line.
func (p *Program) allMatch(content []byte) bool {
	terms := p.expr.terms()
	seen := make([]bool, len(terms))
	left := len(terms)
	lines, hitLines := bytes.Count(content, []byte{'\n'}), 0
	if len(content) > 0 && content[len(content)-1] != '\n' {
		lines++
	}
	mark := func(hit func(int) bool) {
		for i, t := range terms {
			if !seen[i] && t.eval(hit) {
				seen[i] = true
				left--
			}
		}
	}
	p.m.scan(content, p.m.lineFinders(content), func(_, _, _ int, hits []bool) bool {
		hitLines++
		mark(func(i int) bool { return hits[i] })
		return left > 0
	})
	if left > 0 && hitLines < lines {
		mark(func(int) bool { return false })
	}
	return left == 0
}

// Columns returns where git grep --column puts a line's first match
// (0-based, -1 for none), following grep.c's match_expr_eval: col is the
// leftmost match of an atom counted for the line, icol the same under an
// odd number of --not, where the two trade places. A line selected by -v
// shows icol, any other col.
func (p *Program) Columns(line []byte) (col, icol int) {
	col, icol = -1, -1
	fs := p.m.finders(line)
	if p.expr == nil {
		for _, f := range fs {
			if s, _ := p.m.findOne(f, line); s >= 0 && (col < 0 || s < col) {
				col = s
			}
		}
		return col, icol
	}
	p.colEval(p.expr, line, fs, &col, &icol)
	return col, icol
}

func (p *Program) colEval(x *node, line []byte, fs []finder, col, icol *int) bool {
	switch x.op {
	case TokPattern:
		s, _ := p.m.findOne(fs[x.atom], line)
		if s >= 0 && (*col < 0 || s < *col) {
			*col = s
		}
		return s >= 0
	case TokNot:
		return !p.colEval(x.left, line, fs, icol, col)
	case TokAnd:
		h := p.colEval(x.left, line, fs, col, icol)
		// --column never short-circuits: a --not further down may
		// make this an or.
		return p.colEval(x.right, line, fs, col, icol) && h
	}
	h := p.colEval(x.left, line, fs, col, icol)
	return p.colEval(x.right, line, fs, col, icol) || h
}

// NextMatch returns the leftmost match of any pattern in line (the
// longest of those starting there), as git grep colours and prints -o
// matches: after a match, the caller searches the rest of the line with
// notBOL set. It returns -1, -1 when nothing matches.
func (p *Program) NextMatch(line []byte, notBOL bool) (int, int) {
	return p.m.NextMatch(line, notBOL)
}

// NextMatch is Program.NextMatch over the matcher's patterns.
func (m *Matcher) NextMatch(line []byte, notBOL bool) (int, int) {
	bs, be := -1, -1
	for _, f := range m.finders(line) {
		var s, e int
		if m.opts.Word {
			s, e = wordMatch(f, line, notBOL)
		} else {
			s, e = f.find(line, notBOL)
		}
		if s < 0 {
			continue
		}
		if bs < 0 || s < bs || s == bs && e > be {
			bs, be = s, e
		}
	}
	return bs, be
}

// findOne is one pattern's first match in a line, with -w's rule.
func (m *Matcher) findOne(f finder, line []byte) (int, int) {
	if m.opts.Word {
		return wordMatch(f, line, false)
	}
	return f.find(line, false)
}
