package chunk

import (
	"fmt"

	"github.com/bcindex/bcindex/chunk/vocab"
)

// Version changes whenever Split's output for some input changes; stored with
// every blob record so that a new chunker re-chunks old blobs.
//
// History:
//
//	1: tree-sitter chunks for Go, Python, JavaScript, TypeScript, TSX;
//	   markdown sections; 40-line windows for everything else.
//	2: grammars for Java, Rust, C, C++, C#, Ruby, PHP, Kotlin, Scala, Swift,
//	   Bash, Lua, Elixir, OCaml, HCL, SQL, Protobuf, Dockerfile; micro
//	   chunks ("block") in long functions; large top-level constants
//	   ("const"); JSON/YAML/TOML keys, text paragraphs; windows over long
//	   file-level text, sections, keys and paragraphs (the chunk's own
//	   IndexText is then ""); metadata fields (QualifiedName, Access,
//	   Decorators, Imports, ErrorDetail).
//	3: a top-level or class-body ERROR node (or a run of them on touching
//	   lines) that yields no definition is a window child flagged
//	   SyntaxError over its whole lines, with ErrorDetail, instead of
//	   staying silently in its parent chunk.
//	4: a Go method's QualifiedName is Receiver.Method.
//	5: a doc comment the grammar attaches to another node (Ruby: between
//	   `module X` and its first class; Kotlin: after the imports) documents
//	   the definition below it.
//	6: a doc comment block may sit across blank lines from its definition
//	   when nothing else comes between (not a plain comment opening the
//	   file: that is its header); Python's leading # block documents a def
//	   or class without a docstring; Rust's //! and /*! document the file
//	   or module holding them; Ruby's =begin/=end is a doc comment.
//	7: definitions after one left unclosed are their own chunks (recover.go).
//	8: every named top-level constant and variable is a chunk ("const" or
//	   "var"), not only those of 4 lines or more: Go var and const specs,
//	   Python module-level assignments, JavaScript/TypeScript top-level
//	   const/let/var, Ruby constants, Java static final fields, Rust const
//	   and static items, C #define and file-scope variables; enum members
//	   (Java, Rust, C, TypeScript) are "const" chunks of their enum.
//	9: C and C++ lines holding only a macro (ABSL_NAMESPACE_BEGIN,
//	   Q_OBJECT) are read as blank, so the definition below is parsed;
//	   a .h file holding C++ is parsed as C++; error recovery tries only
//	   lines in the parse's broken parts, so a file with a small error
//	   keeps its budget for them.
//	10: a Lua parse starts from the scanner's initial state, not from
//	   what the previous Lua parse left in its globals.
//	11: a Scala definition ends at its last token of code (or its `end`
//	   marker), not at the blank lines and comments its braceless body
//	   takes in up to the next definition: those overlapped the next
//	   definition's chunk and sent the whole file to windows.
const Version = 11

// Chunk is one searchable unit of a file: the file itself, a definition, a
// markdown section or a window of lines.
type Chunk struct {
	Kind        string // see vocab.Kind* constants: file, function, method, class, type, interface, struct, enum, const, var, section, window, block, key, paragraph
	Name        string // symbol or heading; "" for windows
	Parent      int    // index of the parent chunk in File.Chunks; -1 only for chunk 0
	Signature   string // declaration line(s) without body, whitespace-collapsed, <= 200 bytes
	Doc         string // doc comment / docstring text, comment markers stripped
	StartLine   int    // 1-based inclusive
	EndLine     int    // 1-based inclusive
	StartByte   int    // inclusive
	EndByte     int    // exclusive
	SyntaxError bool

	// Metadata (Version 2).

	// QualifiedName is the path of Name below the named ancestors, dotted
	// ("Cart.add", "Cart.add.for-loop@L120"; a Rust impl's methods are the
	// type's), markdown sections joined with " › " ("Install › Linux").
	// Windows take their parent's. "" for chunk 0.
	QualifiedName string
	// Access is "public", "private", "protected", "internal" or "package"
	// (Java), from a modifier or the language's default or naming
	// convention (Go capitals, Python and JavaScript leading underscore);
	// "" for chunks that are not definitions.
	Access string
	// Decorators lists the decorators, annotations and attributes of a
	// definition as written, whitespace-collapsed: "@functools.lru_cache",
	// "@Override", "#[derive(Debug)]", "[Serializable]".
	Decorators []string
	// Imports lists, sorted, the names bound by the file's imports that the
	// chunk's text uses; chunk 0 lists every name the imports bind.
	Imports []string
	// ErrorDetail describes the chunk's first syntax error when SyntaxError
	// is set: "line 12: unexpected `}`", "line 3: missing `;`".
	ErrorDetail string

	// importsKept marks, between Edit's splice and annotate, a chunk of
	// the previous version whose Imports still hold.
	importsKept bool
}

// File is the result of splitting one file.
type File struct {
	Language     string  // "go", "python", "javascript", "typescript", "tsx", "markdown", "text", ...
	Chunks       []Chunk // Chunks[0] is Kind "file" spanning the whole content; sorted by StartByte, parents before children
	Fallback     bool    // line windows were used (unsupported language or failed parse)
	SyntaxErrors int     // count of ERROR / MISSING nodes

	broken []region // the parse's broken parts, where recovery looks (syntaxErrors)
}

// Len is the number of chunks; with Span it makes a File the
// vocab.Spans that vocab.IndexText reads.
func (f File) Len() int { return len(f.Chunks) }

// Span is chunk i as vocab.IndexText reads it.
func (f File) Span(i int) vocab.Span {
	c := &f.Chunks[i]
	return vocab.Span{Kind: c.Kind, Parent: c.Parent, Signature: c.Signature,
		StartByte: c.StartByte, EndByte: c.EndByte, SyntaxError: c.SyntaxError}
}

// Split chunks content, whose path is used to detect its language. It never
// panics and never fails: anything it cannot parse becomes windows.
func Split(path string, content []byte) File { return split(path, content, parseBaseMicros) }

// split is Split with base as the fixed part of each parse's time limit
// (parseLimitMicros).
func split(path string, content []byte, base int) (f File) {
	lang := vocab.DetectLanguage(path, content)
	defer func() {
		// Last resort: a grammar or walker bug must not take the indexer down.
		if r := recover(); r != nil {
			f = splitWindows(lang, path, content)
		}
	}()
	if macroLanguages[lang] {
		// The chunks are made from the file as the parser should read it
		// (macros.go); their offsets hold for the file itself.
		content = blankMacroLines(content)
	}
	var ok bool
	switch {
	case grammarFor(lang) != nil && len(content) <= maxParseBytes:
		f, ok = splitTree(lang, path, content, base)
	case lang == "markdown":
		f, ok = splitMarkdown(path, content), true
	case len(content) > maxParseBytes:
	case lang == "json":
		f, ok = splitJSON(path, content)
	case lang == "yaml":
		f, ok = splitYAML(path, content)
	case lang == "toml":
		f, ok = splitTOML(path, content)
	case lang == "text" || lang == "rst" || lang == "asciidoc":
		f, ok = splitText(lang, path, content)
	}
	if !ok {
		errs := f.SyntaxErrors
		detail := ""
		if len(f.Chunks) > 0 {
			detail = f.Chunks[0].ErrorDetail
		}
		f = splitWindows(lang, path, content)
		f.SyntaxErrors = errs
		f.Chunks[0].SyntaxError = errs > 0
		f.Chunks[0].ErrorDetail = detail
		annotate(&f, content)
		return f
	}
	splitLong(&f, content)
	annotate(&f, content)
	return f
}

// check reports the first violation of File's structural invariants.
func (f *File) check(n int) error {
	if len(f.Chunks) == 0 {
		return fmt.Errorf("no chunks")
	}
	c0 := f.Chunks[0]
	if c0.Kind != vocab.KindFile || c0.Parent != -1 || c0.StartByte != 0 || c0.EndByte != n {
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
		if c.Kind == vocab.KindWindow || c.Kind == vocab.KindBlock {
			continue
		}
		if c.StartByte < lastEnd[c.Parent] {
			return fmt.Errorf("chunk %d overlaps its previous sibling", i)
		}
		lastEnd[c.Parent] = c.EndByte
	}
	return nil
}
