package chunk

import (
	"bytes"

	sitter "github.com/smacker/go-tree-sitter"
)

// The byte-level scans Edit makes of a Go file and its previous version.

// commonEnds returns the lengths of the longest common prefix and suffix of
// a and b, the suffix not overlapping the prefix in either.
func commonEnds(a, b []byte) (pre, suf int) {
	n := min(len(a), len(b))
	for pre < n && a[pre] == b[pre] {
		pre++
	}
	for suf < n-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	return pre, suf
}

// lineEnd returns the offset just past the newline that ends the line
// holding src[off-1] (the end of a chunk ending at off), or len(src).
func lineEnd(src []byte, off int) int {
	if off > 0 && src[off-1] == '\n' {
		return off
	}
	if i := bytes.IndexByte(src[off:], '\n'); i >= 0 {
		return off + i + 1
	}
	return len(src)
}

// blankLineAbove returns where the blank line right above the line starting
// at off begins, or -1 when off does not start a line or the line above is
// not blank.
func blankLineAbove(src []byte, off int) int {
	if off == 0 || src[off-1] != '\n' {
		return -1
	}
	start := bytes.LastIndexByte(src[:off-1], '\n') + 1
	if len(bytes.TrimSpace(src[start:off])) != 0 {
		return -1
	}
	return start
}

// byteRange is [start, end) of src as a tree-sitter range.
func byteRange(src []byte, li lineIndex, start, end int) sitter.Range {
	point := func(off int) sitter.Point {
		row := li.line(off) - 1
		return sitter.Point{Row: uint32(row), Column: uint32(off - li[row])}
	}
	return sitter.Range{StartPoint: point(start), EndPoint: point(end), StartByte: uint32(start), EndByte: uint32(end)}
}

// goEnclosing returns for each offset in offs (ascending) where the
// outermost bracket pair of the Go source src that holds it opens, -1 when
// it lies outside every pair, or -2 past more closing brackets than
// opening ones: comments, strings, runes and raw strings are skipped.
func goEnclosing(src []byte, offs []int) []int {
	out := make([]int, len(offs))
	depth, k, open := 0, 0, -1
	at := func() int {
		switch {
		case depth == 0:
			return -1
		case depth < 0:
			return -2
		}
		return open
	}
	for i := 0; i < len(src) && k < len(offs); i++ {
		for k < len(offs) && offs[k] <= i {
			out[k] = at()
			k++
		}
		switch c := src[i]; c {
		case '(', '[', '{':
			if depth == 0 {
				open = i
			}
			depth++
		case ')', ']', '}':
			depth--
		case '/':
			if i+1 < len(src) && src[i+1] == '/' {
				i = skipTo(src, i+2, "\n") - 1 // the newline is read next
			} else if i+1 < len(src) && src[i+1] == '*' {
				i = skipTo(src, i+2, "*/") + 1
			}
		case '`':
			i = skipTo(src, i+1, "`")
		case '"', '\'':
			for i++; i < len(src) && src[i] != c && src[i] != '\n'; i++ {
				if src[i] == '\\' {
					i++
				}
			}
		}
	}
	for ; k < len(offs); k++ {
		out[k] = at()
	}
	return out
}

// skipTo returns the offset of the first end at or after from, or len(src).
func skipTo(src []byte, from int, end string) int {
	if from > len(src) {
		return len(src)
	}
	if i := bytes.Index(src[from:], []byte(end)); i >= 0 {
		return from + i
	}
	return len(src)
}
