package chunk

import (
	"bytes"
	"fmt"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/bcindex/bcindex/chunk/vocab"
)

// Error recovery. A parser that meets an unclosed block or parenthesis reads
// everything after it as part of the broken construct: the well-formed
// definitions that follow vanish into one broken chunk, an ERROR node or
// the line windows of a failed parse, and a search by their names finds
// nothing. When a file has syntax errors, recoverDefs looks for lines that
// may start a definition where the parse found none (at the indentation of
// their container's members, not closing a block), parses the file again
// from such a line with the text before the container's first member as
// context (the package clause, `<?php`, `class X {`), and keeps the cut when
// a well-formed definition starts there. The file is then chunked segment by
// segment between the cuts. Well-formed files never come here.

// maxRecoverParses bounds the extra parses spent on one file, and
// recoverBudget the bytes they parse: recoverFactor times the file, and at
// least minRecoverBytes. Each parse reads from its cut to the end (though
// tree-sitter reuses the previous parse's nodes past the part that
// changed), so a large file with errors (C full of macros) could otherwise
// be parsed 25 times over: indexing git's own history spent 86% of its time
// here. Since candidates are only lines in broken code, four times the file
// found 0.1% more well-formed definitions than twice on six C and C++
// libraries, for 12% more of their chunking time.
const (
	maxRecoverParses = 24
	recoverFactor    = 2
	minRecoverBytes  = 32 << 10
)

// cut is where a segment starts: line start at, parsed after the context
// src[:prefix]; container is the StartByte of the chunk the definition at
// the cut belongs to, -1 for the file.
type cut struct {
	at, prefix, container int
	indent                int
}

type recoverer struct {
	lang, path string
	src        []byte
	li         lineIndex
	parses     int
	parsed     int // bytes the extra parses read
	base       int // the fixed part of each parse's time limit
	// last is the tree of the latest parse, which the next one starts from.
	last *sitter.Tree
	// probe: candidate cuts are judged on a probe of their parse
	// (chunkTree), not on a full chunking; recoverDefs sets it.
	probe bool
}

// spent reports whether the extra parses have used the file's budget.
func (r *recoverer) spent() bool {
	return r.parses >= maxRecoverParses || r.parsed >= max(recoverFactor*len(r.src), minRecoverBytes)
}

// recoverDefs re-chunks a file whose parse had syntax errors (f, ok are
// the whole-file parse, tree its tree or nil, which recoverDefs closes) so
// that definitions after a broken one are their own chunks. It returns
// false when it finds nothing better. base is the fixed part of each
// parse's time limit (parseLimitMicros).
func recoverDefs(lang, p string, src []byte, f File, ok bool, base int, tree *sitter.Tree) (File, bool) {
	return recoverWith(lang, p, src, f, ok, base, tree, true)
}

// recoverWith is recoverDefs, whose candidate cuts are judged on a probe
// of their parse when probe is set.
func recoverWith(lang, p string, src []byte, f File, ok bool, base int, tree *sitter.Tree, probe bool) (File, bool) {
	r := &recoverer{lang: lang, path: p, src: src, li: newLineIndex(src), base: base, last: tree, probe: probe}
	defer func() {
		if r.last != nil {
			r.last.Close()
		}
	}()
	if len(f.Chunks) == 0 || !f.Chunks[0].SyntaxError {
		return f, false
	}
	cur := f
	if !ok {
		cur = File{Chunks: f.Chunks[:1]} // the file chunk only: every line is a candidate
	}
	// parses[i] chunks the file from cuts[i] on; parses[0] is cur itself.
	parses := []File{cur}
	var cuts []cut
	from := 0
	for !r.spent() {
		found := false
		for _, c := range r.candidates(cur, from, !ok && len(cuts) == 0) {
			if r.spent() {
				break
			}
			// Most candidates find no definition: they are judged on a
			// probe, and only a kept one is chunked in full, from the
			// same tree.
			g, gok := r.parseAs(c.prefix, c.at, len(src), 0, r.probe)
			if gok && r.goodDefAt(g, c) {
				if r.probe {
					g, gok = chunkTree(r.lang, r.path, r.src, r.li, r.last, false)
				}
				cuts, cur, from, found = append(cuts, c), g, c.at+1, true
				parses = append(parses, g)
				break
			}
		}
		if !found {
			break
		}
	}
	if len(cuts) == 0 {
		return f, false
	}
	// Each part comes from the parse that found the cut ending it, cut
	// there: a parse of the part alone would read its broken end as
	// swallowing what encloses the cut (a class left open).
	out := []Chunk{f.Chunks[0]}
	start := 0
	for i, c := range cuts {
		var merged bool
		if i == 0 && !ok {
			out, merged = r.merge(out, r.segment(cut{indent: c.indent, prefix: c.prefix, container: c.container}, c.at), 0, c.at, nil)
		} else {
			out, merged = r.merge(out, parses[i], start, c.at, shared(parses[i], c))
		}
		if !merged {
			return f, false
		}
		start = c.at
	}
	out, merged := r.merge(out, parses[len(cuts)], start, len(src), nil)
	if !merged {
		return f, false
	}
	res := File{Language: f.Language, Chunks: out, SyntaxErrors: f.SyntaxErrors}
	if res.check(len(src)) != nil {
		return f, false
	}
	return res, true
}

// shared returns the chunks of g that go on past cut c because they hold
// its container (the container and its ancestors); every other chunk that
// crosses the cut ends there.
func shared(g File, c cut) map[int]bool {
	m := map[int]bool{}
	if c.container < 0 {
		return m
	}
	for i := len(g.Chunks) - 1; i > 0; i-- {
		k := g.Chunks[i]
		if k.StartByte == c.container && isDefChunk(k) && k.EndByte > c.at {
			for a := i; a > 0; a = g.Chunks[a].Parent {
				m[a] = true
			}
			break
		}
	}
	return m
}

// segment chunks src[s.at:end] in its context. A part that does not parse
// is cut again where the part before a candidate line parses; what is left
// becomes error windows.
func (r *recoverer) segment(s cut, end int) File {
	// A part inside a container is parsed with the container's closing
	// lines after it, or the container reads as unclosed.
	suffix := 0
	if s.container >= 0 {
		for l := len(r.li); l > r.li.line(end); l-- {
			if at := r.li[l-1]; at < len(r.src) && r.src[at] != '\n' && lineIndent(r.src, at) < s.indent {
				suffix = at
				break
			}
		}
	}
	g, ok := r.parse(s.prefix, s.at, end, suffix)
	if ok {
		return g
	}
	for l := r.li.line(s.at) + 1; l <= len(r.li) && r.parses < maxRecoverParses; l++ {
		at := r.li[l-1]
		if at >= end {
			break
		}
		if lineIndent(r.src, at) != s.indent || !startsMember(r.src, at) {
			continue
		}
		if h, hok := r.parse(s.prefix, s.at, at, suffix); hok && r.anyGoodDef(h, s.at) {
			rest := r.segment(cut{at: at, prefix: s.prefix, container: s.container, indent: s.indent}, end)
			if all, ok := r.merge(h.Chunks, rest, at, end, nil); ok {
				return File{Chunks: all}
			}
			break
		}
	}
	// Windows over the broken part, flagged like the error windows of a parse.
	chunks := []Chunk{{Kind: vocab.KindFile, Parent: -1, StartLine: 1, EndLine: r.li.count(len(r.src)), EndByte: len(r.src), SyntaxError: true}}
	var us []unit
	for a := s.at; a < end; {
		b := end
		if j := bytes.IndexByte(r.src[a:end], '\n'); j >= 0 {
			b = a + j + 1
		}
		us = append(us, unit{a, b, 1})
		a = b
	}
	for _, c := range windowUnits(r.li, us, 0, false) {
		c.SyntaxError = true
		c.ErrorDetail = fmt.Sprintf("line %d: does not parse", c.StartLine)
		chunks = append(chunks, c)
	}
	return File{Chunks: chunks}
}

// parse chunks src[s:e] after the context src[:prefix] and before the
// context src[suffix:] (none when suffix is 0).
func (r *recoverer) parse(prefix, s, e, suffix int) (File, bool) {
	return r.parseAs(prefix, s, e, suffix, false)
}

// parseAs is parse, whose chunking is a probe (chunkTree) when probe is
// set.
func (r *recoverer) parseAs(prefix, s, e, suffix int, probe bool) (File, bool) {
	r.parses++
	r.parsed += e - s + min(prefix, s)
	ranges := []sitter.Range{byteRange(r.src, r.li, s, e)}
	if prefix > 0 && prefix <= s {
		ranges = append([]sitter.Range{byteRange(r.src, r.li, 0, prefix)}, ranges...)
	}
	if suffix >= e && suffix > 0 {
		ranges = append(ranges, byteRange(r.src, r.li, suffix, len(r.src)))
	}
	tree := parseTree(r.lang, r.src, ranges, r.base, r.last)
	if tree == nil {
		return File{Language: r.lang}, false
	}
	if r.last != nil {
		r.last.Close()
	}
	r.last = tree
	return chunkTree(r.lang, r.path, r.src, r.li, tree, probe)
}

// goodDefAt reports whether g has a well-formed definition starting on the
// cut's line, a member of the cut's container.
func (r *recoverer) goodDefAt(g File, c cut) bool {
	line := r.li.line(c.at)
	for _, ch := range g.Chunks[1:] {
		if ch.StartLine != line || !isDefChunk(ch) || ch.SyntaxError {
			continue
		}
		if c.container < 0 && ch.Parent == 0 || c.container >= 0 && ch.Parent > 0 && g.Chunks[ch.Parent].StartByte == c.container {
			return true
		}
	}
	return false
}

// anyGoodDef reports whether g has a well-formed definition at or after s.
func (r *recoverer) anyGoodDef(g File, s int) bool {
	for _, ch := range g.Chunks[1:] {
		if ch.StartByte >= s && isDefChunk(ch) && !ch.SyntaxError {
			return true
		}
	}
	return false
}

func isDefChunk(c Chunk) bool {
	return c.Kind != vocab.KindFile && c.Kind != vocab.KindWindow && c.Kind != vocab.KindBlock
}

// merge appends the chunks of g that start in [s, e) to out. Chunks of g
// that start before s come from the context and stand for chunks already
// in out (the same start and kind): their children attach there, and they
// are extended to cover them. A chunk crossing e ends before it, unless
// keep holds it.
func (r *recoverer) merge(out []Chunk, g File, s, e int, keep map[int]bool) ([]Chunk, bool) {
	idx := make([]int, len(g.Chunks)) // g's index → out's, -1 when dropped
	idx[0] = 0
	for i := 1; i < len(g.Chunks); i++ {
		c := g.Chunks[i]
		idx[i] = -1
		if c.StartByte < s {
			idx[i] = findSame(out, c)
			continue
		}
		if c.StartByte >= e {
			continue
		}
		p := idx[c.Parent]
		if p < 0 {
			return out, false
		}
		if c.EndByte > e && !keep[i] {
			c.EndByte = lastCode(r.src, c.StartByte, e)
			if c.EndByte <= c.StartByte {
				continue // no code of its own before e: nothing to keep
			}
			_, c.EndLine = r.li.lines(c.StartByte, c.EndByte)
			// It was cut because it ran into the next definition: it is
			// not closed where it should be.
			c.Signature = clipSignature(r.src, c, r.li)
			if !c.SyntaxError {
				c.SyntaxError = true
				c.ErrorDetail = fmt.Sprintf("line %d: not closed before line %d", c.StartLine, r.li.line(e))
			}
		}
		c.Parent = p
		out = append(out, c)
		idx[i] = len(out) - 1
		for a := p; a >= 0; a = out[a].Parent {
			if out[a].EndByte < c.EndByte {
				out[a].EndByte, out[a].EndLine = c.EndByte, c.EndLine
			}
		}
	}
	return out, true
}

// lastCode returns the end of the last non-blank byte in src[s:e], or s.
func lastCode(src []byte, s, e int) int {
	for e > s && (src[e-1] == ' ' || src[e-1] == '\t' || src[e-1] == '\n' || src[e-1] == '\r') {
		e--
	}
	return e
}

// findSame returns the index in out of the chunk c stands for, or -1.
func findSame(out []Chunk, c Chunk) int {
	for i := len(out) - 1; i > 0; i-- {
		if out[i].StartByte == c.StartByte && out[i].Kind == c.Kind && out[i].Name == c.Name {
			return i
		}
	}
	return -1
}

// clipSignature returns c's signature cut to what lies inside c: the parse
// that made it read past the end c now has.
func clipSignature(src []byte, c Chunk, li lineIndex) string {
	if c.Signature == "" {
		return ""
	}
	at := c.StartByte
	for l := c.StartLine; l < c.EndLine && isCommentLine(src, at); l++ {
		at = li[l] // past the doc, to the definition's first line
	}
	own := collapse(src[at:c.EndByte])
	n := 0
	for n < len(own) && n < len(c.Signature) && own[n] == c.Signature[n] {
		n++
	}
	return strings.TrimSpace(c.Signature[:n])
}
