package chunk

import (
	"bytes"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// docAbove returns where the comment block above it starts and its cleaned
// text. A comment belongs to the block when it starts its own line and no
// blank line separates it from the comment below it; the block itself may
// sit across blank lines from the definition (or its decorators, attributes
// and annotations) when nothing else comes between them. A plain comment
// that opens the file across a blank line is the file's header (a licence,
// a shebang), not a doc.
func (w *walker) docAbove(it item) (int, string) {
	if w.g.docs == nil {
		return it.start, ""
	}
	start := it.start
	i := len(it.prev) - 1
	// TypeScript puts the decorators of class members before them as siblings.
	for ; i >= 0 && w.isAttr(it.prev[i].typ) && adjacent(w.src, it.prev[i].end, start); i-- {
		start = it.prev[i].start
	}
	docEnd := start
	crossed := false
	for ; i >= 0; i-- {
		p := it.prev[i]
		if !isComment(p.typ) || !startsLine(w.src, p.start) || !w.g.docs(w.src, p) {
			break
		}
		if !adjacent(w.src, p.end, start) {
			if start != docEnd || !blankOnly(w.src, p.end, start) {
				break
			}
			crossed = true
		}
		start = p.start
	}
	if crossed && blankOnly(w.src, 0, start) && !docForm(w.src[start:docEnd]) {
		return docEnd, ""
	}
	if start == docEnd {
		start = w.docOutside(start)
	}
	if start == docEnd {
		return start, ""
	}
	return start, cleanComment(string(w.src[start:docEnd]))
}

// column is the byte column of off in its line.
func (w *walker) column(off int) int {
	return off - (bytes.LastIndexByte(w.src[:off], '\n') + 1)
}

// innerDoc returns the inner doc comments (Rust's //! and /*!) that open a
// container: they document the file or module holding them, not the item
// below them.
func (w *walker) innerDoc(items []item) string {
	end := -1
	for _, it := range items {
		if !isComment(it.typ) {
			break
		}
		c := w.src[it.start:it.end]
		if !bytes.HasPrefix(c, []byte("//!")) && !bytes.HasPrefix(c, []byte("/*!")) {
			break
		}
		end = it.end
	}
	if end < 0 {
		return ""
	}
	return cleanComment(string(w.src[items[0].start:end]))
}

// blankOnly reports whether src[from:to] holds only whitespace.
func blankOnly(src []byte, from, to int) bool {
	if from > to || to > len(src) {
		return false
	}
	return len(bytes.TrimSpace(src[from:to])) == 0
}

// docForm reports whether a comment is written in a documentation form
// (/** JSDoc, Javadoc, KDoc, PHPDoc; /// and //! in Rust, C#, Swift; Ruby
// =begin), as opposed to a plain comment.
func docForm(c []byte) bool {
	for _, p := range []string{"/**", "///", "//!", "/*!", "=begin"} {
		if bytes.HasPrefix(c, []byte(p)) {
			return true
		}
	}
	return false
}

// docOutside finds doc comments right above start that are not its
// siblings: the grammar hung them on another node, as Ruby does with a
// comment between `module X` and its first class, or Kotlin with a KDoc after
// the imports, which becomes part of the import list. It returns where they
// begin, or start. Like a sibling block, the nearest comment may sit across
// blank lines. A comment indented deeper than the definition closes the
// body of the one before it instead (Python has no closing keyword).
func (w *walker) docOutside(start int) int {
	first := start
	for {
		pos := start - 1
		for pos >= 0 && strings.IndexByte(" \t\r\n\f\v", w.src[pos]) >= 0 {
			pos--
		}
		if pos < 0 || w.root == nil {
			return start
		}
		row := w.li.line(pos)
		col := pos - (bytes.LastIndexByte(w.src[:pos], '\n') + 1)
		at := sitter.Point{Row: uint32(row - 1), Column: uint32(col)}
		n := w.root.NamedDescendantForPointRange(at, at)
		if n == nil || !isComment(n.Type()) {
			return start
		}
		c := item{n: n, typ: n.Type(), start: int(n.StartByte()), end: int(n.EndByte())}
		near := adjacent(w.src, c.end, start) || start == first && blankOnly(w.src, c.end, start)
		if !near || w.column(c.start) > w.column(first) || !startsLine(w.src, c.start) || !w.g.docs(w.src, c) {
			return start
		}
		start = c.start
	}
}
