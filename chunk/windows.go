// Windows: the own text of a long chunk (the code between definitions, a
// long section or document key, a big function) is cut into line windows
// so that each piece embeds and ranks on its own.

package chunk

import (
	"bytes"
	"sort"
	"strings"

	"github.com/bcindex/bcindex/chunk/vocab"
)

// longLines is how long the own text of the file chunk (the code between
// definitions), a markdown section, a document key or a paragraph may be
// before windows are made over it.
const longLines = 60

// unit is a piece of a chunk's own text for windowing: a line, a paragraph
// or a whole child (counting as the one line of its signature).
type unit struct{ s, e, lines int }

// ownUnits lists the units of chunk idx's own text, byParagraph or by line.
func ownUnits(f *File, src []byte, idx int, byParagraph bool) []unit {
	c := f.Chunks[idx]
	var us []unit
	addLines := func(s, e int) {
		for s < e {
			j := bytes.IndexByte(src[s:e], '\n')
			if j < 0 {
				us = append(us, unit{s, e, 1})
				return
			}
			us = append(us, unit{s, s + j + 1, 1})
			s += j + 1
		}
	}
	if byParagraph {
		addLines = func(s, e int) {
			for _, p := range paragraphs(src, s, e) {
				us = append(us, p)
			}
		}
	}
	pos := c.StartByte
	for j := idx + 1; j < len(f.Chunks); j++ {
		d := f.Chunks[j]
		if d.StartByte >= c.EndByte {
			break
		}
		if d.Parent != idx || d.Kind == vocab.KindBlock || d.Kind == vocab.KindWindow || d.StartByte < pos {
			continue
		}
		addLines(pos, d.StartByte)
		e := d.EndByte
		// The rest of the child's last line goes with it.
		if k := bytes.IndexByte(src[e:c.EndByte], '\n'); k >= 0 && len(bytes.TrimSpace(src[e:e+k])) == 0 {
			e += k + 1
		}
		us = append(us, unit{d.StartByte, e, 1})
		pos = e
	}
	addLines(pos, c.EndByte)
	return us
}

// paragraphs splits [s, e) into runs of lines ended by blank lines (which
// belong to the paragraph before them), each with its line count.
func paragraphs(src []byte, s, e int) []unit {
	var ps []unit
	start, lines, blank := s, 0, false
	for p := s; p < e; {
		j := bytes.IndexByte(src[p:e], '\n')
		end := e
		if j >= 0 {
			end = p + j + 1
		}
		isBlank := len(bytes.TrimSpace(src[p:end])) == 0
		if !isBlank && blank && lines > 0 {
			ps = append(ps, unit{start, p, lines})
			start, lines = p, 0
		}
		blank = isBlank
		if !isBlank {
			lines++
		}
		p = end
	}
	if start < e {
		ps = append(ps, unit{start, e, max(lines, 1)})
	}
	return ps
}

// windowUnits groups units into overlapping windows of about windowLines
// lines, children of parent: consecutive windows share windowOverlap lines,
// or one unit when byUnit (paragraphs).
func windowUnits(li lineIndex, us []unit, parent int, byUnit bool) []Chunk {
	var ws []Chunk
	for i := 0; i < len(us); {
		j, n := i, 0
		for j < len(us) && (j == i || n+us[j].lines <= windowLines) {
			n += us[j].lines
			j++
		}
		s, e := us[i].s, us[j-1].e
		if e > s {
			sl, el := li.lines(s, e)
			ws = append(ws, Chunk{Kind: vocab.KindWindow, Parent: parent, StartLine: sl, EndLine: el, StartByte: s, EndByte: e})
		}
		if j == len(us) {
			break
		}
		next, back := j, 0
		for next-1 > i && (byUnit && next == j || !byUnit && back+us[next-1].lines <= windowOverlap) {
			back += us[next-1].lines
			next--
		}
		i = next
	}
	return ws
}

// splitLong makes windows over the own text of the chunks whose IndexText
// is longer than longLines: the file chunk and, for documents, sections,
// keys and paragraphs. The windows then carry that text and the chunk
// itself indexes nothing.
func splitLong(f *File, src []byte) {
	var extra []Chunk
	li := newLineIndex(src)
	for i, c := range f.Chunks {
		if i > 0 && c.Kind != vocab.KindSection && c.Kind != vocab.KindKey && c.Kind != vocab.KindParagraph {
			continue
		}
		if c.EndLine-c.StartLine < longLines || strings.Count(vocab.IndexText(src, *f, i), "\n") < longLines {
			continue
		}
		byPara := c.Kind == vocab.KindSection || f.Language == "markdown" && i == 0
		extra = append(extra, windowUnits(li, ownUnits(f, src, i, byPara), i, byPara)...)
	}
	if len(extra) > 0 {
		sort.SliceStable(extra, func(a, b int) bool { return extra[a].StartByte < extra[b].StartByte })
		f.Chunks = insertChunks(f.Chunks, extra)
	}
}

// insertChunks merges extra chunks, sorted by StartByte, whose parents are
// indexes into chunks, renumbering all parents. An extra chunk goes before
// an original one starting at the same byte when its parent comes earlier.
func insertChunks(chunks, extra []Chunk) []Chunk {
	out := make([]Chunk, 0, len(chunks)+len(extra))
	newIdx := make([]int, len(chunks))
	var extraAt []int
	k := 0
	for i, c := range chunks {
		for k < len(extra) && extra[k].Parent < i && extra[k].StartByte <= c.StartByte {
			extraAt = append(extraAt, len(out))
			out = append(out, extra[k])
			k++
		}
		newIdx[i] = len(out)
		out = append(out, c)
	}
	for ; k < len(extra); k++ {
		extraAt = append(extraAt, len(out))
		out = append(out, extra[k])
	}
	for i := 1; i < len(chunks); i++ {
		out[newIdx[i]].Parent = newIdx[chunks[i].Parent]
	}
	for _, at := range extraAt {
		out[at].Parent = newIdx[out[at].Parent]
	}
	return out
}
