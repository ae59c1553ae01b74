package gitgrep

import (
	"bytes"
	"strings"

	"github.com/bcindex/bcindex/chunk"
	"github.com/bcindex/bcindex/chunk/vocab"
)

// definition is a definition of a file as the chunker finds it, for -p and
// -W: its lines (doc comment included), and the line its declaration
// starts on.
type definition struct {
	start, sig, end int // 1-based lines
}

// userdiffDrivers are git's built-in diff drivers: a file whose diff
// attribute names one (or a driver configured with diff.NAME.xfuncname)
// has its function lines found by a regular expression in git; -p and -W
// find them with the chunker instead.
var userdiffDrivers = map[string]bool{
	"ada": true, "bash": true, "bibtex": true, "cpp": true, "csharp": true, "css": true, "dts": true,
	"elixir": true, "fortran": true, "fountain": true, "golang": true, "html": true, "java": true,
	"kotlin": true, "markdown": true, "matlab": true, "objc": true, "pascal": true, "perl": true,
	"php": true, "python": true, "ruby": true, "rust": true, "scheme": true, "tex": true,
}

// definitions chunks a file and returns its definitions in start order,
// or nil when the chunker finds none (a language it does not parse): the
// caller then uses git's default rule.
func definitions(path string, content []byte) []definition {
	f := chunk.Split(path, content)
	if f.Fallback {
		return nil
	}
	var out []definition
	for _, c := range f.Chunks {
		switch c.Kind {
		case vocab.KindFile, vocab.KindWindow, vocab.KindBlock, vocab.KindParagraph:
			continue
		}
		out = append(out, definition{start: c.StartLine, sig: signatureLine(content, c), end: c.EndLine})
	}
	return out
}

// signatureLine finds the line a definition's declaration starts on,
// below its doc comment and decorators: the first line that begins as
// its signature does.
func signatureLine(content []byte, c chunk.Chunk) int {
	sig := strings.Fields(c.Signature)
	if len(sig) == 0 || len(c.Decorators) == 0 && c.Doc == "" {
		return c.StartLine
	}
	first := sig[0]
	lines := bytes.Split(content[c.StartByte:min(c.EndByte, len(content))], []byte{'\n'})
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(string(l)), first) {
			return c.StartLine + i
		}
	}
	return c.StartLine
}

// enclosing returns the innermost definition holding line lno, or nil.
func enclosing(defs []definition, lno int) *definition {
	var best *definition
	for i := range defs {
		d := &defs[i]
		if d.start > lno {
			break
		}
		if lno <= d.end && (best == nil || d.start >= best.start) {
			best = d
		}
	}
	return best
}
