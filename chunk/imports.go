package chunk

import (
	"bytes"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/bcindex/bcindex/internal/lazyre"
)

// Import statements, per language, with the names they bind.
var (
	goImportRe     = lazyre.New(`(?m)^\s*(?:import\s+)?([A-Za-z_.][\w]*\s+)?"([^"]+)"\s*$`)
	pyImportRe     = newLineRe(`(?m)^\s*import\s+([\w., \t]+)$`, "import")
	pyFromRe       = newLineRe(`(?m)^\s*from\s+[\w.]+\s+import\s+\(?([^)\n]+(?:\n[^)\n]+)*)\)?`, "from")
	jsImportRe     = newLineRe(`(?m)^\s*import\s+(?:type\s+)?([^'"]+?)\s+from\s+['"]`, "import")
	jsRequireRe    = lazyre.New(`(?m)(?:const|let|var)\s+([\w$]+|\{[^}]*\})\s*=\s*require\(`)
	dottedImportRe = newLineRe(`(?m)^\s*import\s+(?:static\s+)?([\w.]+)(?:\s+as\s+(\w+))?`, "import")
	rustUseRe      = newLineRe(`(?m)^\s*(?:pub\s+)?use\s+([^;]+);`, "pub", "use")
	phpUseRe       = newLineRe(`(?m)^\s*use\s+([\w\\]+)(?:\s+as\s+(\w+))?\s*;`, "use")
	exAliasRe      = newLineRe(`(?m)^\s*alias\s+([\w.]+)(?:\s*,\s*as:\s*(\w+))?`, "alias")
	luaRequireRe   = lazyre.New(`(?m)local\s+(\w+)\s*=\s*require`)
	csUsingRe      = newLineRe(`(?m)^\s*using\s+(?:static\s+)?(?:(\w+)\s*=\s*)?([\w.]+)\s*;`, "using")
	identRe        = lazyre.New(`[A-Za-z_$][\w$]*`)
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
		if n != "" && n != "*" && n != "_" && n != "." && identRe().MatchString(n) {
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
		for _, m := range goImportRe().FindAllStringSubmatch(s, -1) {
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
		for _, m := range pyImportRe.findAll(head) {
			for _, part := range strings.Split(string(m[1]), ",") {
				f := strings.Fields(part)
				if len(f) == 3 && f[1] == "as" {
					add(f[2])
				} else if len(f) > 0 {
					add(strings.Split(f[0], ".")[0])
				}
			}
		}
		for _, m := range pyFromRe.findAll(head) {
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
		for _, m := range jsImportRe.findAll(head) {
			jsBindings(string(m[1]), add)
		}
		if !bytes.Contains(head, []byte("require(")) {
			break // every match ends with it
		}
		for _, m := range jsRequireRe().FindAllSubmatch(head, -1) {
			jsBindings(string(m[1]), add)
		}
	case "java", "kotlin", "scala", "swift", "groovy":
		for _, m := range dottedImportRe.findAll(head) {
			if len(m[2]) > 0 {
				add(string(m[2]))
			} else {
				add(last(string(m[1]), "."))
			}
		}
	case "rust":
		for _, m := range rustUseRe.findAll(head) {
			rustBindings(string(m[1]), add)
		}
	case "php":
		for _, m := range phpUseRe.findAll(head) {
			if len(m[2]) > 0 {
				add(string(m[2]))
			} else {
				add(last(string(m[1]), `\`))
			}
		}
	case "elixir":
		for _, m := range exAliasRe.findAll(head) {
			if len(m[2]) > 0 {
				add(string(m[2]))
			} else {
				add(last(string(m[1]), "."))
			}
		}
	case "lua":
		for _, m := range luaRequireRe().FindAllSubmatch(head, -1) {
			add(string(m[1]))
		}
	case "csharp":
		for _, m := range csUsingRe.findAll(head) {
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
	scanIdents(b, func(i, j int) {
		if imports[string(b[i:j])] && !seen[string(b[i:j])] {
			seen[string(b[i:j])] = true
			out = append(out, string(b[i:j]))
		}
	})
	sortStrings(out)
	return out
}

// scanIdents calls fn with the bounds of each identifier in b: a run of
// identifier bytes, past the digits it starts with.
func scanIdents(b []byte, fn func(i, j int)) {
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
		fn(i, j)
		i = j
	}
}

// importUses are the identifiers of a file that name an import, in order:
// the file is scanned once, and each chunk takes the uses inside it.
type importUses []importUse

type importUse struct {
	at   int
	name string
}

// findImportUses lists the identifiers of src that are names in imports.
func findImportUses(src []byte, imports map[string]bool) importUses {
	var out importUses
	names := map[string]string{} // one string per name used
	scanIdents(src, func(i, j int) {
		if !imports[string(src[i:j])] {
			return
		}
		name, ok := names[string(src[i:j])]
		if !ok {
			name = string(src[i:j])
			names[name] = name
		}
		out = append(out, importUse{i, name})
	})
	return out
}

// in is usedNames(src[s:e], imports): the names used in [s, e), sorted and
// distinct. A bound inside an identifier splits it there, which the
// file's scan did not: such a range is scanned on its own.
func (u importUses) in(src []byte, s, e int, imports map[string]bool) []string {
	if s < 0 || e > len(src) || s > e || splitsIdent(src, s) || splitsIdent(src, e) {
		return usedNames(src[s:e], imports)
	}
	k := sort.Search(len(u), func(k int) bool { return u[k].at >= s })
	var out []string
	for ; k < len(u) && u[k].at < e; k++ {
		if !slices.Contains(out, u[k].name) { // a file uses few imports
			out = append(out, u[k].name)
		}
	}
	sortStrings(out)
	return out
}

// splitsIdent reports whether offset at lies between two identifier bytes.
func splitsIdent(src []byte, at int) bool {
	return at > 0 && at < len(src) && isIdentByte(src[at-1]) && isIdentByte(src[at])
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
