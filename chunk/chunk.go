package chunk

import (
	"fmt"
	"strings"
)

// Version changes whenever Split's output for some input changes; stored with
// every blob record so that a new chunker re-chunks old blobs.
//
// History:
//
//	1: tree-sitter chunks for Go, Python, JavaScript, TypeScript, TSX;
//	   markdown sections; 40-line windows for everything else.
const Version = 1

// Chunk kinds.
const (
	KindFile      = "file"
	KindFunction  = "function"
	KindMethod    = "method"
	KindClass     = "class"
	KindType      = "type"
	KindInterface = "interface"
	KindStruct    = "struct"
	KindEnum      = "enum"
	KindSection   = "section"
	KindWindow    = "window"
	KindBlock     = "block"
	KindKey       = "key"
	KindParagraph = "paragraph"
)

// Chunk is one searchable unit of a file: the file itself, a definition, a
// markdown section or a window of lines.
type Chunk struct {
	Kind        string // see Kind* constants: file, function, method, class, type, interface, struct, enum, section, window, block, key, paragraph
	Name        string // symbol or heading; "" for windows
	Parent      int    // index of the parent chunk in File.Chunks; -1 only for chunk 0
	Signature   string // declaration line(s) without body, whitespace-collapsed, <= 200 bytes
	Doc         string // doc comment / docstring text, comment markers stripped
	StartLine   int    // 1-based inclusive
	EndLine     int    // 1-based inclusive
	StartByte   int    // inclusive
	EndByte     int    // exclusive
	SyntaxError bool
}

// File is the result of splitting one file.
type File struct {
	Language     string  // "go", "python", "javascript", "typescript", "tsx", "markdown", "text", ...
	Chunks       []Chunk // Chunks[0] is Kind "file" spanning the whole content; sorted by StartByte, parents before children
	Fallback     bool    // line windows were used (unsupported language or failed parse)
	SyntaxErrors int     // count of ERROR / MISSING nodes
}

// Split chunks content, whose path is used to detect its language. It never
// panics and never fails: anything it cannot parse becomes windows.
func Split(path string, content []byte) (f File) {
	lang := DetectLanguage(path, content)
	defer func() {
		// Last resort: a grammar or walker bug must not take the indexer down.
		if r := recover(); r != nil {
			f = splitWindows(lang, path, content)
		}
	}()
	var ok bool
	switch {
	case grammarFor(lang) != nil && len(content) <= maxParseBytes:
		f, ok = splitTree(lang, path, content)
	case lang == "markdown":
		f, ok = splitMarkdown(path, content), true
	}
	if !ok {
		errs := f.SyntaxErrors
		f = splitWindows(lang, path, content)
		f.SyntaxErrors = errs
		f.Chunks[0].SyntaxError = errs > 0
	}
	return f
}

// IndexText is the text that is tokenised and embedded for chunk i: the chunk's
// byte range with the ranges of its definition children (functions, methods,
// classes, types...) replaced by their signature line, so a class reads as its
// header and the file chunk as the code between definitions. Micro chunks
// ("block") and windows are not cut out of their parent. May be "" (nothing
// to index).
func IndexText(content []byte, f File, i int) string {
	if i < 0 || i >= len(f.Chunks) {
		return ""
	}
	c := f.Chunks[i]
	start, end := clamp(c.StartByte, len(content)), clamp(c.EndByte, len(content))
	if start >= end {
		return ""
	}
	var sb strings.Builder
	pos := start
	// Direct children follow their parent in order, each after the previous
	// one; deeper descendants are skipped because they lie inside a child.
	for j := i + 1; j < len(f.Chunks); j++ {
		d := f.Chunks[j]
		if d.StartByte >= end {
			break
		}
		if d.Parent != i || d.Kind == KindBlock || d.Kind == KindWindow {
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

// check reports the first violation of File's structural invariants.
func (f *File) check(n int) error {
	if len(f.Chunks) == 0 {
		return fmt.Errorf("no chunks")
	}
	c0 := f.Chunks[0]
	if c0.Kind != KindFile || c0.Parent != -1 || c0.StartByte != 0 || c0.EndByte != n {
		return fmt.Errorf("chunk 0 is not the whole file: %+v", c0)
	}
	// lastEnd[p] is the end of p's latest definition child: siblings must not overlap.
	lastEnd := make([]int, len(f.Chunks))
	for i := 1; i < len(f.Chunks); i++ {
		c := f.Chunks[i]
		if c.Parent < 0 || c.Parent >= i {
			return fmt.Errorf("chunk %d: parent %d not before it", i, c.Parent)
		}
		p := f.Chunks[c.Parent]
		if c.StartByte < p.StartByte || c.EndByte > p.EndByte || c.StartByte > c.EndByte {
			return fmt.Errorf("chunk %d [%d,%d) outside parent %d [%d,%d)", i, c.StartByte, c.EndByte, c.Parent, p.StartByte, p.EndByte)
		}
		if c.StartByte < f.Chunks[i-1].StartByte {
			return fmt.Errorf("chunk %d not sorted by StartByte", i)
		}
		if c.StartLine < 1 || c.EndLine < c.StartLine {
			return fmt.Errorf("chunk %d: bad lines %d-%d", i, c.StartLine, c.EndLine)
		}
		if c.Kind == KindWindow || c.Kind == KindBlock {
			continue
		}
		if c.StartByte < lastEnd[c.Parent] {
			return fmt.Errorf("chunk %d overlaps its previous sibling", i)
		}
		lastEnd[c.Parent] = c.EndByte
	}
	return nil
}
