package exact

import (
	"bytes"
	"slices"
)

// Line is one matching line.
type Line struct {
	Number     int      // 1-based
	Start, End int      // byte offsets of the line in content, End excludes the '\n'
	Spans      [][2]int // match spans, offsets relative to Start, non-overlapping, in order
}

// Lines calls yield for every matching line of content, in order, until
// yield returns false. Lines are '\n'-separated; a last line without '\n'
// counts; '\r' is an ordinary byte. Binary detection is not done here.
func (m *Matcher) Lines(content []byte, yield func(Line) bool) {
	finders := m.finders(content)
	m.scan(content, finders, func(number, start, end int, hits []bool) bool {
		line := Line{Number: number, Start: start, End: end}
		for i, f := range finders {
			if hits[i] {
				line.Spans = m.appendSpans(line.Spans, f, content[start:end])
			}
		}
		line.Spans = mergeSpans(line.Spans)
		return yield(line)
	})
}

// CountLines returns how many lines match.
func (m *Matcher) CountLines(content []byte) int {
	n := 0
	m.scan(content, m.finders(content), func(int, int, int, []bool) bool {
		n++
		return true
	})
	return n
}

// Match reports whether any line matches; it stops at the first match.
func (m *Matcher) Match(content []byte) bool {
	found := false
	m.scan(content, m.finders(content), func(int, int, int, []bool) bool {
		found = true
		return false
	})
	return found
}

// scan calls fn for every matching line with its number, bounds and which
// patterns match it, until fn returns false. Each pattern's next matching
// line is kept until the scan passes it, so every pattern reads content
// once whatever the number of patterns.
func (m *Matcher) scan(content []byte, finders []finder, fn func(number, start, end int, hits []bool) bool) {
	next := make([]int, len(m.pats)) // start of the pattern's next matching line, or -1
	ends := make([]int, len(m.pats))
	hits := make([]bool, len(m.pats))
	for i, f := range finders {
		next[i], ends[i] = m.nextLine(f, content, 0)
	}
	number, counted := 1, 0
	for {
		start, end := -1, -1
		for i := range next {
			if next[i] >= 0 && (start < 0 || next[i] < start) {
				start, end = next[i], ends[i]
			}
		}
		if start < 0 {
			return
		}
		for i := range next {
			hits[i] = next[i] == start
		}
		number += bytes.Count(content[counted:start], []byte{'\n'})
		counted = start
		if !fn(number, start, end, hits) {
			return
		}
		for i := range next {
			// An anchored pattern's look-ahead starts at the line after
			// the hit, so its \A may match there.
			if _, ok := finders[i].(*anchored); hits[i] || ok {
				next[i], ends[i] = m.nextLine(finders[i], content, end+1)
			}
		}
	}
}

// finders picks each pattern's finder for content.
func (m *Matcher) finders(content []byte) []finder {
	fs := make([]finder, len(m.pats))
	special := -1 // whether content holds the Kelvin sign or the long s, once known
	for i, p := range m.pats {
		fs[i] = p.finder
		if p.unicode == nil {
			continue
		}
		if special < 0 {
			special = 0
			if bytes.Contains(content, kelvin) || bytes.Contains(content, longS) {
				special = 1
			}
		}
		if special == 1 {
			fs[i] = p.unicode
		}
	}
	return fs
}

// lineFinders is finders for a scan that checks every line on its own, as
// git does with an expression or -v: an anchored pattern's subject is
// each line.
func (m *Matcher) lineFinders(content []byte) []finder {
	fs := m.finders(content)
	for i, f := range fs {
		if a, ok := f.(*anchored); ok {
			fs[i] = lineAnchored{a}
		}
	}
	return fs
}

// anchored reports whether a pattern holds \A or \z.
func (m *Matcher) anchored() bool {
	for _, p := range m.pats {
		if _, ok := p.finder.(*anchored); ok {
			return true
		}
	}
	return false
}

// nextLine returns the bounds of the first line starting at or after pos (a
// line start) that f matches, or -1, -1. A match found in a run of lines
// lies in one line, as no match holds '\n', and is that line's leftmost
// match, as each line start looks to the pattern like the subject's start.
func (m *Matcher) nextLine(f finder, content []byte, pos int) (int, int) {
	for pos < len(content) {
		s := f.first(content[pos:])
		if s < 0 {
			return -1, -1
		}
		s += pos
		start := pos + bytes.LastIndexByte(content[pos:s], '\n') + 1
		if start >= len(content) {
			return -1, -1 // a match after the final '\n' is on no line
		}
		end := len(content)
		if i := bytes.IndexByte(content[s:], '\n'); i >= 0 {
			end = s + i
		}
		if !m.opts.Word {
			return start, end
		}
		if s, _ := wordMatch(f, content[start:end], false); s >= 0 {
			return start, end
		}
		pos = end + 1
	}
	return -1, -1
}

// wordMatch is git grep's -w rule (grep.c, match_one_pattern): a match
// counts if it is not empty, starts the subject or follows a non-word byte,
// and ends the subject or precedes one. When the leftmost match fails,
// the search resumes after its start, past the rest of that word, with ^
// no longer matching (REG_NOTBOL). It returns the first match that counts.
func wordMatch(f finder, subject []byte, notBOL bool) (int, int) {
	bol := 0
	for {
		s, e := f.find(subject[bol:], notBOL)
		if s < 0 {
			return -1, -1
		}
		s, e = s+bol, e+bol
		if s != e && (s == bol || !isWord(subject[s-1])) && (e == len(subject) || !isWord(subject[e])) {
			return s, e
		}
		if s+1 >= len(subject) {
			return -1, -1
		}
		bol = s + 1
		for bol < len(subject) && isWord(subject[bol-1]) {
			bol++
		}
		notBOL = true
		if bol >= len(subject) {
			return -1, -1
		}
	}
}

// isWord is git's word_char: ASCII letters, digits and '_'.
func isWord(b byte) bool {
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' || b == '_'
}

// appendSpans appends the non-empty matches of f in line as git grep's
// colouring finds them: each search starts where the last match ended,
// with ^ no longer matching, and an empty match ends the line's matches.
func (m *Matcher) appendSpans(spans [][2]int, f finder, line []byte) [][2]int {
	for bol, notBOL := 0, false; bol < len(line); notBOL = true {
		var s, e int
		if m.opts.Word {
			s, e = wordMatch(f, line[bol:], notBOL)
		} else {
			s, e = f.find(line[bol:], notBOL)
		}
		if s < 0 || s == e {
			break
		}
		spans = append(spans, [2]int{bol + s, bol + e})
		bol += e
	}
	return spans
}

// mergeSpans sorts spans and merges those that overlap or touch.
func mergeSpans(spans [][2]int) [][2]int {
	if len(spans) < 2 {
		return spans
	}
	slices.SortFunc(spans, func(a, b [2]int) int { return a[0] - b[0] })
	out := spans[:1]
	for _, s := range spans[1:] {
		last := &out[len(out)-1]
		if s[0] <= last[1] {
			last[1] = max(last[1], s[1])
			continue
		}
		out = append(out, s)
	}
	return out
}
