package chunk

import (
	"bytes"
	"strings"
	"unsafe"

	"github.com/bcindex/bcindex/chunk/vocab"
)

// isDef reports whether kind is a named definition (not a file, window,
// block, document key, section or paragraph).
func isDef(kind string) bool {
	switch kind {
	case vocab.KindFile, vocab.KindWindow, vocab.KindBlock, vocab.KindKey, vocab.KindSection, vocab.KindParagraph, vocab.KindStage:
		return false
	}
	return true
}

// annotate fills the metadata fields of every chunk: QualifiedName,
// Access, Decorators and Imports.
func annotate(f *File, src []byte) {
	annotateWith(f, src, fileImports(f.Language, src))
}

// annotateWith is annotate with the names the file's imports bind. A chunk
// marked importsKept keeps its Imports (see Edit) and loses the mark.
func annotateWith(f *File, src []byte, imports map[string]bool) {
	if len(imports) > 0 {
		names := make([]string, 0, len(imports))
		for n := range imports {
			names = append(names, n)
		}
		sortStrings(names)
		f.Chunks[0].Imports = names
	}
	var uses importUses
	if len(imports) > 0 {
		uses = findImportUses(src, imports)
	}
	for i := 1; i < len(f.Chunks); i++ {
		c := &f.Chunks[i]
		p := &f.Chunks[c.Parent]
		c.QualifiedName = qualify(p, c)
		if f.Language == "go" && c.Kind == vocab.KindMethod {
			if r := goReceiver(c.Signature); r != "" {
				c.QualifiedName = r + "." + c.Name
			}
		}
		if isDef(c.Kind) && c.Kind != vocab.KindImpl {
			c.Decorators = decorators(src[c.StartByte:min(c.EndByte, c.StartByte+4096)])
			c.Access = access(f.Language, c, p, src)
		}
		if c.importsKept {
			c.importsKept = false
		} else if len(imports) > 0 && c.Kind != vocab.KindWindow {
			c.Imports = uses.in(src, c.StartByte, c.EndByte, imports)
		}
	}
}

// qualify is the dotted path of c's name below its named ancestors; markdown
// sections join their heading path with " › ".
func qualify(p, c *Chunk) string {
	name := c.Name
	if c.Kind == vocab.KindWindow {
		name = ""
	}
	pq := p.QualifiedName
	if p.Kind == vocab.KindFile {
		pq = ""
	} else if p.Kind == vocab.KindImpl && pq == p.Name {
		// impl Display for Point: its methods are Point's.
		if _, t, ok := strings.Cut(p.Name, " for "); ok {
			pq = t
		}
	}
	switch {
	case name == "":
		return pq
	case pq == "":
		return name
	case c.Kind == vocab.KindSection:
		return pq + " › " + name
	}
	return pq + "." + name
}

var accessWords = map[string]string{
	"public": "public", "private": "private", "protected": "protected",
	"internal": "internal", "fileprivate": "private", "open": "public",
	"pub": "public", "pub(crate)": "internal", "pub(super)": "internal", "pub(self)": "private",
	"defp": "private", "defmacrop": "private", "defguardp": "private", "local": "private",
}

// access is "public", "private", "protected" or "internal" by an explicit
// modifier in the signature, else by the language's default or naming
// convention.
func access(lang string, c, p *Chunk, src []byte) string {
	sig := c.Signature
	if i := strings.Index(sig, c.Name); i > 0 && c.Name != "" {
		sig = sig[:i]
	}
	for _, w := range strings.Fields(sig) {
		if a, ok := accessWords[w]; ok {
			if w == "open" && lang != "swift" {
				continue
			}
			return a
		}
	}
	name := c.Name
	switch lang {
	case "go":
		if name != "" && strings.ToUpper(name[:1]) == name[:1] && name[0] != '_' {
			return "public"
		}
		return "private"
	case "python", "javascript", "typescript", "tsx", "ruby", "lua", "dart":
		if lang == "ruby" && p.Kind != vocab.KindFile {
			if a := rubySection(src, p, c); a != "" {
				return a
			}
		}
		if strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__") {
			return "public"
		}
		if strings.HasPrefix(name, "_") || strings.HasPrefix(name, "#") {
			return "private"
		}
		return "public"
	case "java":
		if p.Kind == vocab.KindInterface {
			return "public"
		}
		return "package"
	case "csharp":
		if p.Kind == vocab.KindInterface {
			return "public"
		}
		if p.Kind == vocab.KindFile {
			return "internal"
		}
		return "private"
	case "swift":
		return "internal"
	case "rust":
		if p.Kind == vocab.KindTrait || p.Kind == vocab.KindImpl && strings.Contains(p.Name, " for ") {
			return "public"
		}
		return "private"
	case "c", "cpp":
		if strings.HasPrefix(c.Signature, "static ") && p.Kind == vocab.KindFile {
			return "private"
		}
		if lang == "cpp" && (p.Kind == vocab.KindClass || p.Kind == vocab.KindStruct) {
			if a := cppSection(src, p, c); a != "" {
				return a
			}
			if p.Kind == vocab.KindClass {
				return "private"
			}
		}
		return "public"
	}
	return "public"
}

// rubySection is the access set by the last bare private/protected/public
// line of the class before c.
func rubySection(src []byte, p, c *Chunk) string {
	return lastLabel(src[p.StartByte:c.StartByte], false)
}

// cppSection is the access of the last access specifier before c.
func cppSection(src []byte, p, c *Chunk) string {
	return lastLabel(src[p.StartByte:c.StartByte], true)
}

// lastLabel returns the access word (private, protected, public) of the
// last line of b that holds one alone, or followed by a colon when colon is
// set, "" when none does. It reads b from the end, so that each member of
// a long class costs the lines since the label before it.
func lastLabel(b []byte, colon bool) string {
	for end := len(b); end >= 0; {
		start := bytes.LastIndexByte(b[:end], '\n') + 1
		line := bytes.TrimLeft(b[start:end], " \t")
		for _, w := range []string{"private", "protected", "public"} {
			if !bytes.HasPrefix(line, []byte(w)) {
				continue
			}
			rest := bytes.TrimLeft(line[len(w):], " \t")
			if colon && len(rest) > 0 && rest[0] == ':' || !colon && len(rest) == 0 {
				return w
			}
		}
		end = start - 1
	}
	return ""
}

// decorators lists the decorators, annotations and attributes at the head of
// a definition's text (after its doc comment): Python and TypeScript
// @decorators, Java/Kotlin/Scala/Swift @annotations, Rust and PHP #[...], C#
// [...]. Elixir @doc/@moduledoc are doc, not decorators.
func decorators(b []byte) []string {
	var out []string
	// s is only read: what is kept is collapsed into new strings.
	s := unsafe.String(unsafe.SliceData(b), len(b))
	pos := 0
	for pos < len(s) && len(out) < 16 {
		for pos < len(s) && isBlank(s[pos]) {
			pos++
		}
		rest := s[pos:]
		switch {
		case strings.HasPrefix(rest, "#["), strings.HasPrefix(rest, "@"), strings.HasPrefix(rest, "[") && len(out) >= 0 && startsAttr(rest):
			end := attrEnd(rest)
			if end <= 1 {
				return out
			}
			d := collapse([]byte(rest[:end]))
			if !strings.HasPrefix(d, "@doc") && !strings.HasPrefix(d, "@moduledoc") && !strings.HasPrefix(d, "@spec") {
				out = append(out, d)
			}
			pos += end
		case strings.HasPrefix(rest, "//"), strings.HasPrefix(rest, "#"), strings.HasPrefix(rest, "--"):
			nl := strings.IndexByte(rest, '\n')
			if nl < 0 {
				return out
			}
			pos += nl + 1
		case strings.HasPrefix(rest, "/*"), strings.HasPrefix(rest, "(*"):
			closer := "*/"
			if rest[0] == '(' {
				closer = "*)"
			}
			e := strings.Index(rest[2:], closer)
			if e < 0 {
				return out
			}
			pos += e + 4
		default:
			return out
		}
	}
	return out
}

// startsAttr reports whether a line starting with [ is a C# attribute.
func startsAttr(s string) bool {
	return len(s) > 1 && (s[1] >= 'A' && s[1] <= 'Z' || s[1] >= 'a' && s[1] <= 'z')
}

// attrEnd is the length of the attribute at the start of s: @name.path with
// an optional (...) argument list, or a bracketed #[...] / [...].
func attrEnd(s string) int {
	i := 0
	if s[0] == '@' {
		i = 1
		for i < len(s) && (isIdentByte(s[i]) || s[i] == '.' || s[i] == ':') {
			i++
		}
		if i < len(s) && s[i] == '(' {
			if e := balanced(s[i:], '(', ')'); e > 0 {
				i += e
			}
		}
		return i
	}
	if s[0] == '#' {
		i = 1
	}
	if e := balanced(s[i:], '[', ']'); e > 0 {
		return i + e
	}
	return 0
}

// balanced returns the length of the bracketed group at the start of s, 0
// when it does not close within 2 KB.
func balanced(s string, open, closer byte) int {
	depth := 0
	for i := 0; i < len(s) && i < 2048; i++ {
		switch s[i] {
		case open:
			depth++
		case closer:
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return 0
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// "func (s *Server[T]) Run()" gives "Server".
func goReceiver(sig string) string {
	rest, ok := strings.CutPrefix(sig, "func (")
	if !ok {
		return ""
	}
	recv, _, ok := strings.Cut(rest, ")")
	if !ok {
		return ""
	}
	fields := strings.Fields(recv)
	if len(fields) == 0 {
		return ""
	}
	t := strings.TrimLeft(fields[len(fields)-1], "*")
	if i := strings.IndexByte(t, '['); i >= 0 {
		t = t[:i]
	}
	return t
}
