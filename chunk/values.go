package chunk

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/bcindex/bcindex/chunk/vocab"
)

// Named constants and variables of the table-driven languages: each is a
// symbol of its own (kind "const" or "var"), found by its name like a
// function.

// javaConstName names a static final field (a class constant); other
// fields are state, not definitions worth a chunk.
func javaConstName(w *walker, n *sitter.Node) string {
	mods := ""
	for i := 0; i < int(n.NamedChildCount()); i++ {
		if c := n.NamedChild(i); c.Type() == "modifiers" {
			mods = " " + collapse([]byte(w.text(c))) + " "
		}
	}
	if !strings.Contains(mods, " static ") || !strings.Contains(mods, " final ") {
		return ""
	}
	return javaDeclaratorName(w, n)
}

// javaDeclaratorName is the name of the first declarator of a field or an
// interface constant.
func javaDeclaratorName(w *walker, n *sitter.Node) string {
	if d := n.ChildByFieldName("declarator"); d != nil {
		return w.text(d.ChildByFieldName("name"))
	}
	return ""
}

// cVarName names a file-scope variable definition: not a function
// prototype, not an extern declaration of a variable defined elsewhere.
func cVarName(w *walker, n *sitter.Node) string {
	d := n.ChildByFieldName("declarator")
	if d == nil || hasDeclarator(d, "function_declarator") {
		return ""
	}
	for i := 0; i < int(n.NamedChildCount()); i++ {
		if c := n.NamedChild(i); c.Type() == "storage_class_specifier" && w.text(c) == "extern" {
			return ""
		}
	}
	return declName(w, d)
}

// hasDeclarator reports whether declarator d is, or wraps, one of type typ.
func hasDeclarator(d *sitter.Node, typ string) bool {
	for ; d != nil; d = d.ChildByFieldName("declarator") {
		if d.Type() == typ {
			return true
		}
	}
	return false
}

// cVarKind is "const" for a const-qualified variable, else "var".
func cVarKind(w *walker, n *sitter.Node) string {
	for i := 0; i < int(n.NamedChildCount()); i++ {
		if c := n.NamedChild(i); c.Type() == "type_qualifier" && w.text(c) == "const" {
			return vocab.KindConst
		}
	}
	return vocab.KindVar
}

// rubyConstName names an assignment to a constant (FOO = ...), at the top
// of a file or in a class or module body.
func rubyConstName(w *walker, n *sitter.Node) string {
	if l := n.ChildByFieldName("left"); l != nil && l.Type() == "constant" {
		return w.text(l)
	}
	return ""
}

// jsEnumMembers adds a "const" chunk for each member of a TypeScript enum
// body, under the enum's chunk i.
func (w *walker) jsEnumMembers(body *sitter.Node, i int) {
	if body == nil {
		return
	}
	for _, m := range w.children(body) {
		name := m.n
		if m.typ == "enum_assignment" {
			name = m.n.ChildByFieldName("name")
		} else if m.typ != "property_identifier" {
			continue
		}
		w.add(vocab.KindConst, w.text(name), i, m.start, m.end, collapse(w.src[m.start:m.end]), "", m.n)
	}
}
