package chunk

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/bcindex/bcindex/chunk/vocab"
)

// visitPython chunks functions and classes; functions directly in a class
// body are methods. The chunk of a decorated definition starts at its first
// decorator; its doc is the docstring.
func visitPython(w *walker, it item, parent int, inClass bool) {
	def := it
	switch it.typ {
	case "decorated_definition":
		d := it.n.ChildByFieldName("definition")
		if d == nil {
			return
		}
		def = item{n: d, typ: d.Type(), start: int(d.StartByte()), end: int(d.EndByte())}
	case "expression_statement":
		if parent == 0 && onlyComments(it.prev) && w.chunks[0].Doc == "" {
			w.chunks[0].Doc = w.docstring(it.n)
		}
		if a := it.n.NamedChild(0); a != nil && a.Type() == "assignment" {
			if l := a.ChildByFieldName("left"); l != nil && l.Type() == "identifier" {
				start, doc := w.docAbove(it)
				w.constChunk(upperKind(w.text(l)), l, parent, start, it.end, doc, it.n)
			}
		}
		return
	case "ERROR":
		w.into(it.n, parent, inClass)
		return
	}
	switch def.typ {
	case "function_definition":
		kind := vocab.KindFunction
		if inClass {
			kind = vocab.KindMethod
		}
		w.pyDef(kind, def, it, parent)
	case "class_definition":
		i := w.pyDef(vocab.KindClass, def, it, parent)
		w.into(def.n.ChildByFieldName("body"), i, true)
	}
}

func (w *walker) pyDef(kind string, def, outer item, parent int) int {
	body := def.n.ChildByFieldName("body")
	sig := strings.TrimSuffix(w.sig(def.start, def.n), ":")
	doc := ""
	if body != nil {
		doc = w.docstring(body.NamedChild(0))
	}
	// A leading # block documents the definition too: the docstring when
	// there is one, the comment otherwise.
	start, comment := w.docAbove(outer)
	if doc == "" {
		doc = comment
	}
	return w.add(kind, w.text(def.n.ChildByFieldName("name")), parent, start, outer.end, sig, doc, outer.n)
}

// docstring returns the cleaned string if n is a string expression statement.
func (w *walker) docstring(n *sitter.Node) string {
	if n == nil || n.Type() != "expression_statement" {
		return ""
	}
	s := n.NamedChild(0)
	if s == nil || s.Type() != "string" {
		return ""
	}
	return cleanDocstring(w.text(s))
}

func onlyComments(items []item) bool {
	for _, it := range items {
		if it.typ != "comment" {
			return false
		}
	}
	return true
}

// upperKind is the kind of a module-level name in a language without
// constants: "const" for an ALL_CAPS name, by convention, else "var".
func upperKind(name string) string {
	if strings.ToUpper(name) == name && strings.ToLower(name) != name {
		return vocab.KindConst
	}
	return vocab.KindVar
}
