package vocab

import "strings"

// Span is what IndexText reads of a chunk: its kind, its parent, its
// place in the file and its signature.
type Span struct {
	Kind        string
	Parent      int // index of the parent chunk; -1 for chunk 0, the file
	Signature   string
	StartByte   int // inclusive
	EndByte     int // exclusive
	SyntaxError bool
}

// Spans are the chunks of one file in the chunker's order: chunk 0 spans
// the file, the others follow sorted by start byte, parents before
// children. The chunker's files (chunk.File) and a blob's rows in the
// index (segment.BlobSpans) are Spans, so that the writer and the readers
// compute the same text.
type Spans interface {
	Len() int
	Span(i int) Span
}

// IndexText is the text that is tokenised and embedded for chunk i: the chunk's
// byte range with the ranges of its definition children (functions, methods,
// classes, types...) replaced by their signature line, so a class reads as its
// header and the file chunk as the code between definitions. Micro chunks
// ("block") and windows are not cut out of their parent. A window reads as the
// part of its parent's text it spans (definitions cut the same way); a chunk
// with windows (the file chunk of a Fallback file, a long file-level text,
// section, key or paragraph) reads as "": its windows carry its text. Error
// windows (SyntaxError, over a region of broken code) do not: their parent
// reads as if they were not there. May be "" (nothing to index).
func IndexText(content []byte, f Spans, i int) string {
	n := f.Len()
	if i < 0 || i >= n {
		return ""
	}
	c := f.Span(i)
	start, end := clamp(c.StartByte, len(content)), clamp(c.EndByte, len(content))
	if start >= end {
		return ""
	}
	// A window stands for the part of its parent's text it spans: the
	// definitions it holds are cut like in the parent.
	owner := i
	if c.Kind == KindWindow {
		owner = c.Parent
	}
	var sb strings.Builder
	pos := start
	// Direct children follow their parent in order, each after the previous
	// one; deeper descendants are skipped because they lie inside a child.
	for j := i + 1; j < n; j++ {
		d := f.Span(j)
		if d.StartByte >= end {
			break
		}
		if d.Parent == i && d.Kind == KindWindow && !d.SyntaxError {
			return "" // the windows carry the text
		}
		// An error window (SyntaxError) only flags a broken region: its
		// lines stay in the text of its parent, like those of a block.
		if d.Parent != owner || d.Kind == KindBlock || d.Kind == KindWindow {
			continue
		}
		ds, de := clamp(d.StartByte, end), clamp(d.EndByte, end)
		if ds < pos {
			continue
		}
		sb.Write(content[pos:ds])
		sb.WriteString(d.Signature)
		pos = de
	}
	sb.Write(content[pos:end])
	s := sb.String()
	if strings.TrimSpace(s) == "" {
		return ""
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

func clamp(v, n int) int {
	return min(max(v, 0), n)
}
