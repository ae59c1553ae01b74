package chunk

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// isDef reports whether kind is a named definition (not a file, window,
// block, document key, section or paragraph).
func isDef(kind string) bool {
	switch kind {
	case KindFile, KindWindow, KindBlock, KindKey, KindSection, KindParagraph, KindStage:
		return false
	}
	return true
}

// annotate fills the metadata fields of every chunk: QualifiedName,
// Access, Decorators and Imports.
func annotate(f *File, src []byte) {
	imports := fileImports(f.Language, src)
	if len(imports) > 0 {
		names := make([]string, 0, len(imports))
		for n := range imports {
			names = append(names, n)
		}
		sortStrings(names)
		f.Chunks[0].Imports = names
	}
	for i := 1; i < len(f.Chunks); i++ {
		c := &f.Chunks[i]
		p := &f.Chunks[c.Parent]
		c.QualifiedName = qualify(p, c)
		if f.Language == "go" && c.Kind == KindMethod {
			if r := goReceiver(c.Signature); r != "" {
				c.QualifiedName = r + "." + c.Name
			}
		}
		if isDef(c.Kind) && c.Kind != KindImpl {
			c.Decorators = decorators(src[c.StartByte:min(c.EndByte, c.StartByte+4096)])
			c.Access = access(f.Language, c, p, src)
		}
		if len(imports) > 0 && c.Kind != KindWindow {
			c.Imports = usedNames(src[c.StartByte:c.EndByte], imports)
		}
	}
}

// qualify is the dotted path of c's name below its named ancestors; markdown
// sections join their heading path with " › ".
func qualify(p, c *Chunk) string {
	name := c.Name
	if c.Kind == KindWindow {
		name = ""
	}
	pq := p.QualifiedName
	if p.Kind == KindFile {
		pq = ""
	} else if p.Kind == KindImpl && pq == p.Name {
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
	case c.Kind == KindSection:
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
		if lang == "ruby" && p.Kind != KindFile {
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
		if p.Kind == KindInterface {
			return "public"
		}
		return "package"
	case "csharp":
		if p.Kind == KindInterface {
			return "public"
		}
		if p.Kind == KindFile {
			return "internal"
		}
		return "private"
	case "swift":
		return "internal"
	case "rust":
		if p.Kind == KindTrait || p.Kind == KindImpl && strings.Contains(p.Name, " for ") {
			return "public"
		}
		return "private"
	case "c", "cpp":
		if strings.HasPrefix(c.Signature, "static ") && p.Kind == KindFile {
			return "private"
		}
		if lang == "cpp" && (p.Kind == KindClass || p.Kind == KindStruct) {
			if a := cppSection(src, p, c); a != "" {
				return a
			}
			if p.Kind == KindClass {
				return "private"
			}
		}
		return "public"
	}
	return "public"
}

var (
	rubyAccessRe = regexp.MustCompile(`(?m)^[ \t]*(private|protected|public)[ \t]*$`)
	cppAccessRe  = regexp.MustCompile(`(?m)^[ \t]*(private|protected|public)[ \t]*:`)
)

// rubySection is the access set by the last bare private/protected/public
// line of the class before c.
func rubySection(src []byte, p, c *Chunk) string {
	return lastMatch(rubyAccessRe, src[p.StartByte:c.StartByte])
}

// cppSection is the access of the last access specifier before c.
func cppSection(src []byte, p, c *Chunk) string {
	return lastMatch(cppAccessRe, src[p.StartByte:c.StartByte])
}

func lastMatch(re *regexp.Regexp, b []byte) string {
	ms := re.FindAllSubmatch(b, -1)
	if len(ms) == 0 {
		return ""
	}
	return string(ms[len(ms)-1][1])
}

// decorators lists the decorators, annotations and attributes at the head of
// a definition's text (after its doc comment): Python and TypeScript
// @decorators, Java/Kotlin/Scala/Swift @annotations, Rust and PHP #[...], C#
// [...]. Elixir @doc/@moduledoc are doc, not decorators.
func decorators(b []byte) []string {
	var out []string
	s := string(b)
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

// Import statements, per language, with the names they bind.
var (
	goImportRe     = regexp.MustCompile(`(?m)^\s*(?:import\s+)?([A-Za-z_.][\w]*\s+)?"([^"]+)"\s*$`)
	pyImportRe     = regexp.MustCompile(`(?m)^\s*import\s+([\w., \t]+)$`)
	pyFromRe       = regexp.MustCompile(`(?m)^\s*from\s+[\w.]+\s+import\s+\(?([^)\n]+(?:\n[^)\n]+)*)\)?`)
	jsImportRe     = regexp.MustCompile(`(?m)^\s*import\s+(?:type\s+)?([^'"]+?)\s+from\s+['"]`)
	jsRequireRe    = regexp.MustCompile(`(?m)(?:const|let|var)\s+([\w$]+|\{[^}]*\})\s*=\s*require\(`)
	dottedImportRe = regexp.MustCompile(`(?m)^\s*import\s+(?:static\s+)?([\w.]+)(?:\s+as\s+(\w+))?`)
	rustUseRe      = regexp.MustCompile(`(?m)^\s*(?:pub\s+)?use\s+([^;]+);`)
	phpUseRe       = regexp.MustCompile(`(?m)^\s*use\s+([\w\\]+)(?:\s+as\s+(\w+))?\s*;`)
	exAliasRe      = regexp.MustCompile(`(?m)^\s*alias\s+([\w.]+)(?:\s*,\s*as:\s*(\w+))?`)
	luaRequireRe   = regexp.MustCompile(`(?m)local\s+(\w+)\s*=\s*require`)
	csUsingRe      = regexp.MustCompile(`(?m)^\s*using\s+(?:static\s+)?(?:(\w+)\s*=\s*)?([\w.]+)\s*;`)
	identRe        = regexp.MustCompile(`[A-Za-z_$][\w$]*`)
)

// goImportBlock returns the part of a Go file before its first top-level
// func, type, var or const declaration: the only place imports may be.
func goImportBlock(src []byte) []byte {
	end := len(src)
	for _, kw := range []string{"\nfunc ", "\ntype ", "\nvar ", "\nconst ", "\nfunc(", "\nvar(", "\nconst(", "\ntype("} {
		if i := bytes.Index(src[:end], []byte(kw)); i >= 0 {
			end = i
		}
	}
	return src[:end]
}

// fileImports returns the names a file's imports bind, for the languages
// whose imports name things (not C includes).
func fileImports(lang string, src []byte) map[string]bool {
	head := src
	names := map[string]bool{}
	add := func(n string) {
		n = strings.TrimSpace(n)
		if n != "" && n != "*" && n != "_" && n != "." && identRe.MatchString(n) {
			names[n] = true
		}
	}
	last := func(p, sep string) string {
		if i := strings.LastIndex(p, sep); i >= 0 {
			return p[i+len(sep):]
		}
		return p
	}
	switch lang {
	case "go":
		// Only the import declarations, which precede every other
		// top-level declaration.
		s := string(goImportBlock(head))
		for _, m := range goImportRe.FindAllStringSubmatch(s, -1) {
			if m[1] != "" {
				add(m[1])
				continue
			}
			p := strings.Split(m[2], "/")
			n := p[len(p)-1]
			if len(p) > 1 && len(n) > 1 && n[0] == 'v' && isDigits(n[1:]) {
				n = p[len(p)-2]
			}
			n = strings.TrimPrefix(n, "go-")
			if i := strings.IndexAny(n, ".-"); i > 0 {
				n = n[:i]
			}
			add(n)
		}
	case "python":
		for _, m := range pyImportRe.FindAllSubmatch(head, -1) {
			for _, part := range strings.Split(string(m[1]), ",") {
				f := strings.Fields(part)
				if len(f) == 3 && f[1] == "as" {
					add(f[2])
				} else if len(f) > 0 {
					add(strings.Split(f[0], ".")[0])
				}
			}
		}
		for _, m := range pyFromRe.FindAllSubmatch(head, -1) {
			for _, part := range strings.Split(string(m[1]), ",") {
				part, _, _ = strings.Cut(part, "#")
				f := strings.Fields(part)
				if len(f) == 3 && f[1] == "as" {
					add(f[2])
				} else if len(f) == 1 {
					add(f[0])
				}
			}
		}
	case "javascript", "typescript", "tsx":
		for _, m := range jsImportRe.FindAllSubmatch(head, -1) {
			jsBindings(string(m[1]), add)
		}
		for _, m := range jsRequireRe.FindAllSubmatch(head, -1) {
			jsBindings(string(m[1]), add)
		}
	case "java", "kotlin", "scala", "swift", "groovy":
		for _, m := range dottedImportRe.FindAllSubmatch(head, -1) {
			if len(m[2]) > 0 {
				add(string(m[2]))
			} else {
				add(last(string(m[1]), "."))
			}
		}
	case "rust":
		for _, m := range rustUseRe.FindAllSubmatch(head, -1) {
			rustBindings(string(m[1]), add)
		}
	case "php":
		for _, m := range phpUseRe.FindAllSubmatch(head, -1) {
			if len(m[2]) > 0 {
				add(string(m[2]))
			} else {
				add(last(string(m[1]), `\`))
			}
		}
	case "elixir":
		for _, m := range exAliasRe.FindAllSubmatch(head, -1) {
			if len(m[2]) > 0 {
				add(string(m[2]))
			} else {
				add(last(string(m[1]), "."))
			}
		}
	case "lua":
		for _, m := range luaRequireRe.FindAllSubmatch(head, -1) {
			add(string(m[1]))
		}
	case "csharp":
		for _, m := range csUsingRe.FindAllSubmatch(head, -1) {
			if len(m[1]) > 0 {
				add(string(m[1]))
			}
		}
	}
	return names
}

// braceLists flattens a brace list of names into a comma-separated one.
var braceLists = strings.NewReplacer("{", ",", "}", ",", "\n", " ")

// jsBindings adds the names of an import clause: X, { a, b as c }, * as ns.
func jsBindings(clause string, add func(string)) {
	clause = braceLists.Replace(clause)
	for _, part := range strings.Split(clause, ",") {
		f := strings.Fields(part)
		switch {
		case len(f) >= 3 && f[len(f)-2] == "as":
			add(f[len(f)-1])
		case len(f) >= 2 && f[len(f)-2] == ":": // { a: b } = require
			add(f[len(f)-1])
		case len(f) == 1:
			add(strings.TrimPrefix(f[0], "type "))
		case len(f) == 2 && f[0] == "type":
			add(f[1])
		}
	}
}

// rustBindings adds the names a use tree binds: a::b::C, a::{B, c::D as E}.
func rustBindings(tree string, add func(string)) {
	tree = braceLists.Replace(tree)
	for _, part := range strings.Split(tree, ",") {
		f := strings.Fields(part)
		if len(f) == 3 && f[1] == "as" {
			add(f[2])
			continue
		}
		if len(f) == 1 {
			p := f[0]
			if i := strings.LastIndex(p, "::"); i >= 0 {
				p = p[i+2:]
			}
			if p != "self" && p != "super" && p != "crate" {
				add(p)
			}
		}
	}
}

// usedNames lists the names of imports that occur as identifiers in b.
func usedNames(b []byte, imports map[string]bool) []string {
	var out []string
	seen := map[string]bool{}
	for i := 0; i < len(b); {
		c := b[i]
		if !isIdentByte(c) || c >= '0' && c <= '9' {
			i++
			continue
		}
		j := i + 1
		for j < len(b) && isIdentByte(b[j]) {
			j++
		}
		if imports[string(b[i:j])] && !seen[string(b[i:j])] {
			seen[string(b[i:j])] = true
			out = append(out, string(b[i:j]))
		}
		i = j
	}
	sortStrings(out)
	return out
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

func isDigits(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil
}

// synErr is one syntax error of a parse.
type synErr struct {
	start, end int
	detail     string
}

// maxSynErrs bounds how many syntax errors are described per file.
const maxSynErrs = 64

// syntaxErrors counts the ERROR and MISSING nodes under root and describes
// the first maxSynErrs of them: "line 12: unexpected `}`", "line 3: missing
// `;`".
func syntaxErrors(root *sitter.Node, src []byte, li lineIndex) (int, []synErr) {
	c := sitter.NewTreeCursor(root)
	defer c.Close()
	count := 0
	var errs []synErr
	for {
		n := c.CurrentNode()
		if n.HasError() {
			if n.IsError() || n.IsMissing() {
				count++
				if len(errs) < maxSynErrs {
					errs = append(errs, synErr{int(n.StartByte()), int(n.EndByte()), describeError(n, src, li)})
				}
			}
			if c.GoToFirstChild() {
				continue
			}
		}
		for !c.GoToNextSibling() {
			if !c.GoToParent() {
				return count, errs
			}
		}
	}
}

// describeError describes the ERROR or MISSING node n: "line 12: unexpected
// `}`", "line 3: missing `;`".
func describeError(n *sitter.Node, src []byte, li lineIndex) string {
	s, e := int(n.StartByte()), int(n.EndByte())
	line := strconv.Itoa(li.line(s))
	if n.IsMissing() {
		return "line " + line + ": missing `" + n.Type() + "`"
	}
	t := strings.TrimSpace(string(src[s:min(e, s+200)]))
	t, _, _ = strings.Cut(t, "\n")
	if len(t) > 40 {
		t = collapse([]byte(t[:40])) + "…"
	}
	return "line " + line + ": unexpected `" + strings.ToValidUTF8(t, "\uFFFD") + "`"
}

// errorDetail describes the first error within [s, e).
func errorDetail(errs []synErr, s, e int) string {
	for _, x := range errs {
		if x.start >= s && x.start <= e {
			return x.detail
		}
	}
	return ""
}

// goReceiver returns the receiver type of a Go method signature:
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
