package chunk

import (
	"bytes"
	"sort"

	"github.com/bcindex/bcindex/chunk/vocab"
)

// candidates lists the cuts worth trying in f after byte from, in order:
// in each container with a syntax error (the file, a class, a module),
// the lines at the indentation of its members that lie in a broken part of
// the parse (an ERROR node, a block a MISSING node was to close, or a
// member flagged with a syntax error), may open a chunk (mayOpen), and
// neither open
// a definition the parse already has nor close a block. raw is set when f
// is a failed parse with no structure: lines at the file's top indentation
// and, inside a single top-level container, at its members' indentation.
//
// Each candidate costs a parse from it to the end of the file, and a file
// gets at most maxRecoverParses: lines of well-formed code around a small
// error (a C macro, a stray token) never hold a swallowed definition, and
// spending the parses on them left the broken part unrecovered.
func (r *recoverer) candidates(f File, from int, raw bool) []cut {
	var out []cut
	seen := map[int]bool{}
	add := func(c cut) {
		if !seen[c.at] {
			seen[c.at] = true
			out = append(out, c)
		}
	}
	if raw {
		for _, c := range r.rawCandidates(from) {
			add(c)
		}
		return out
	}
	var broken []region
	for i, c := range f.Chunks {
		if !c.SyntaxError || c.Kind == vocab.KindWindow || c.Kind == vocab.KindBlock {
			continue
		}
		broken = brokenMembers(f, i, broken[:0])
		var kids []Chunk
		for _, k := range f.Chunks[i+1:] {
			if k.Parent == i && isDefChunk(k) {
				kids = append(kids, k)
			}
		}
		indent, prefix, container, firstLine := 0, 0, -1, 1
		if i > 0 {
			if len(kids) == 0 {
				continue // a member's indentation is not known
			}
			container, firstLine = c.StartByte, c.StartLine+1
			indent = lineIndent(r.src, r.li[kids[0].StartLine-1])
		}
		if len(kids) > 0 {
			prefix = kids[0].StartByte
		}
		for l := firstLine; l <= c.EndLine && l <= len(r.li); l++ {
			at := r.li[l-1]
			if at < from || at >= c.EndByte || lineIndent(r.src, at) != indent || !startsMember(r.src, at) || r.opensKid(kids, l) {
				continue
			}
			if !inRegions(f.broken, at) && !inAny(broken, at) || !r.mayOpen(l) {
				continue
			}
			add(cut{at: at, prefix: min(prefix, at), container: container, indent: indent})
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a].at < out[b].at })
	return out
}

// brokenMembers appends to out the byte ranges of container i's
// descendants in f that are flagged with a syntax error, past their first
// byte.
func brokenMembers(f File, i int, out []region) []region {
	c := f.Chunks[i]
	for j := i + 1; j < len(f.Chunks) && f.Chunks[j].StartByte < c.EndByte; j++ {
		if k := f.Chunks[j]; k.SyntaxError && descends(f, j, i) {
			out = append(out, region{k.StartByte + 1, k.EndByte})
		}
	}
	return out
}

// descends reports whether chunk j of f descends from chunk i.
func descends(f File, j, i int) bool {
	for a := f.Chunks[j].Parent; a >= 0; a = f.Chunks[a].Parent {
		if a == i {
			return true
		}
	}
	return false
}

// inAny reports whether at lies in one of rs.
func inAny(rs []region, at int) bool {
	for _, r := range rs {
		if r.s <= at && at < r.e {
			return true
		}
	}
	return false
}

// mayOpen reports whether line l may be the first line of a chunk: not a
// line comment continuing the one above it (a definition's chunk starts
// at its doc's first line), nor a C preprocessor line other than #define.
func (r *recoverer) mayOpen(l int) bool {
	at := r.li[l-1]
	line := r.src[at+lineIndent(r.src, at):]
	if cDirectives[r.lang] && len(line) > 0 && line[0] == '#' {
		d := bytes.TrimLeft(line[1:], " \t")
		return bytes.HasPrefix(d, []byte("define"))
	}
	if l == 1 {
		return true
	}
	mark := commentMark(line)
	if mark == "" {
		return true
	}
	prev := r.li[l-2]
	return lineIndent(r.src, prev) != lineIndent(r.src, at) || commentMark(r.src[prev+lineIndent(r.src, prev):]) != mark
}

// cDirectives are the languages whose lines starting with # are
// preprocessor directives, not comments.
var cDirectives = map[string]bool{"c": true, "cpp": true, "objc": true, "csharp": true}

// commentMark returns the line comment token line starts with, "" when none.
func commentMark(line []byte) string {
	for _, m := range []string{"///", "//", "#", "--", ";"} {
		if bytes.HasPrefix(line, []byte(m)) {
			return m
		}
	}
	return ""
}

// rawCandidates lists the top-indentation lines of the file after from
// and, when one line opens everything else (a class holding every method),
// its members' lines with that line as context.
func (r *recoverer) rawCandidates(from int) []cut {
	var top, inner []cut
	innerIndent, innerPrefix := -1, 0
	for l := 1; l <= len(r.li); l++ {
		at := r.li[l-1]
		if !startsMember(r.src, at) {
			continue
		}
		ind := lineIndent(r.src, at)
		if ind == 0 {
			if at >= from && at > 0 {
				top = append(top, cut{at: at, container: -1})
			}
			continue
		}
		if innerIndent < 0 {
			innerIndent, innerPrefix = ind, at
		}
		if ind == innerIndent && at >= from && at > innerPrefix {
			inner = append(inner, cut{at: at, prefix: innerPrefix, container: 0, indent: ind})
		}
	}
	if len(top) > 0 {
		return top
	}
	return inner
}

// opensKid reports whether line l lies in the head of one of kids: from
// its first line (its doc, decorators) to its first line of code.
func (r *recoverer) opensKid(kids []Chunk, l int) bool {
	for _, k := range kids {
		if l < k.StartLine || l > k.EndLine {
			continue
		}
		for h := k.StartLine; h <= l; h++ {
			if !isCommentLine(r.src, r.li[h-1]) {
				return h == l
			}
		}
		return true
	}
	return false
}

// lineIndent is the width of the indentation of the line starting at at.
func lineIndent(src []byte, at int) int {
	n := 0
	for at+n < len(src) && (src[at+n] == ' ' || src[at+n] == '\t') {
		n++
	}
	return n
}

// startsMember reports whether the line starting at at may begin a
// definition: it is not blank and does not close or continue a block.
func startsMember(src []byte, at int) bool {
	line := src[at:]
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	line = bytes.TrimSpace(line)
	if len(line) == 0 || bytes.IndexByte([]byte("})]>|,.;=+-*&?:"), line[0]) >= 0 {
		return false
	}
	word := line
	if i := bytes.IndexFunc(word, func(r rune) bool { return !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') }); i >= 0 {
		word = word[:i]
	}
	switch string(word) {
	case "end", "else", "elif", "elsif", "except", "finally", "catch", "rescue", "ensure",
		"done", "fi", "esac", "then", "do", "in", "when", "case", "default", "and", "or", "with":
		return false
	}
	return true
}

// isCommentLine reports whether the line starting at at opens with a
// comment or a decorator.
func isCommentLine(src []byte, at int) bool {
	line := bytes.TrimLeft(src[at:min(len(src), at+4)], " \t")
	for _, p := range []string{"//", "/*", "*", "#", "--", ";", "(*", "@", "\"\"\"", "%"} {
		if bytes.HasPrefix(line, []byte(p)) {
			return true
		}
	}
	return false
}
