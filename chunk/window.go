package chunk

import (
	"bytes"
	"path"
	"unicode/utf8"

	"github.com/bcindex/bcindex/chunk/vocab"
)

// Windows: 40 lines sliding by 30, so that a match near a boundary is whole
// in one of two windows. Minified or generated files with huge lines are cut
// at maxWindowBytes instead, on a line end when there is one.
const (
	windowLines    = 40
	windowOverlap  = 10
	maxWindowBytes = 8 << 10
)

// splitWindows chunks content into overlapping line windows under the file
// chunk.
func splitWindows(lang, p string, src []byte) File {
	li := newLineIndex(src)
	n := len(src)
	f := File{Language: lang, Fallback: true}
	f.Chunks = append(f.Chunks, Chunk{
		Kind: vocab.KindFile, Name: path.Base(p), Parent: -1,
		StartLine: 1, EndLine: li.count(n), EndByte: n,
	})
	lineStart := func(i int) int { // 0-based line i, n past the last line
		if i < len(li) {
			return li[i]
		}
		return n
	}
	for s := 0; s < n; {
		first := li.line(s) - 1 // 0-based
		e := lineStart(first + windowLines)
		full := true
		if e-s > maxWindowBytes {
			e, full = cutWindow(src, s, s+maxWindowBytes), false
		}
		sl, el := li.lines(s, e)
		f.Chunks = append(f.Chunks, Chunk{
			Kind: vocab.KindWindow, Parent: 0,
			StartLine: sl, EndLine: el, StartByte: s, EndByte: e,
		})
		if e >= n {
			break
		}
		next := e
		if full {
			if o := lineStart(first + windowLines - windowOverlap); o > s {
				next = o
			}
		}
		s = next
	}
	return f
}

// cutWindow returns where a window starting at s must end to stay within
// lim: after the last newline before lim, or else on a rune boundary.
func cutWindow(src []byte, s, lim int) int {
	if i := bytes.LastIndexByte(src[s:lim], '\n'); i >= 0 {
		return s + i + 1
	}
	e := lim
	for e > s+1 && !utf8.RuneStart(src[e]) && lim-e < utf8.UTFMax {
		e--
	}
	return e
}
