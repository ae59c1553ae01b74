package chunk

import (
	"bytes"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/bcindex/bcindex/chunk/vocab"
)

// Error windows: an ERROR node directly in a container (the file, a class
// body, a namespace) that yields no definition is a region of broken code.
// It becomes a window chunk flagged SyntaxError, a child of the container's
// chunk, over the whole lines of the region (split into overlapping windows
// of windowLines when longer), so that a search hit on it says the code
// there does not parse. Like every window it is not cut out of its parent's
// IndexText; unlike the windows of a long text, it does not carry its
// parent's text either.

// errRegion is the last error region of a container: its windows are
// w.chunks[first:end] (end is 0 when there is none) over [s, e).
type errRegion struct {
	first, end int
	s, e       int
	n          *sitter.Node // the region's first ERROR node
}

// errorWindow adds the windows of ERROR node it, a child of parent's
// container that yielded no chunk; prevEnd is where its previous sibling
// ends. The region joins open, the container's last one, when nothing was
// chunked since and their lines touch, as when tree-sitter cuts one broken
// line into several ERROR nodes and stray statements.
func (w *walker) errorWindow(open errRegion, it item, prevEnd, parent int) errRegion {
	s := max(w.lineStart(it.start), prevEnd)
	e := w.lineEnd(it.end)
	n := it.n
	if open.end > 0 && open.end == len(w.chunks) && s <= open.e {
		w.chunks = w.chunks[:open.first]
		s, e, n = open.s, max(e, open.e), open.n
	}
	first := len(w.chunks)
	// Within the parent, and sorted after the chunks made so far.
	p := w.chunks[parent]
	s = max(s, p.StartByte, w.chunks[first-1].StartByte)
	e = min(e, p.EndByte)
	if e <= s {
		return errRegion{}
	}
	detail := errorDetail(w.errs, s, e)
	if detail == "" && !w.probe {
		detail = describeError(n, w.src, w.li)
	}
	var us []unit
	for a := s; a < e; {
		b := e
		if j := bytes.IndexByte(w.src[a:e], '\n'); j >= 0 {
			b = a + j + 1
		}
		us = append(us, unit{a, b, 1})
		a = b
	}
	for _, c := range windowUnits(w.li, us, parent, false) {
		c.SyntaxError = true
		if c.ErrorDetail = errorDetail(w.errs, c.StartByte, c.EndByte); c.ErrorDetail == "" {
			c.ErrorDetail = detail
		}
		w.chunks = append(w.chunks, c)
	}
	return errRegion{first: first, end: len(w.chunks), s: s, e: e, n: n}
}

// lineStart returns the start of the line holding byte off.
func (w *walker) lineStart(off int) int {
	return w.li[w.li.line(off)-1]
}

// lineEnd returns the end of the line holding byte end-1, past its newline.
func (w *walker) lineEnd(end int) int {
	if end <= 0 {
		return 0
	}
	if l := w.li.line(end - 1); l < len(w.li) {
		return w.li[l]
	}
	return len(w.src)
}

// anyDef reports whether the walk made a chunk other than the file chunk
// and error windows.
func (w *walker) anyDef() bool {
	for _, c := range w.chunks[1:] {
		if c.Kind != vocab.KindWindow {
			return true
		}
	}
	return false
}
