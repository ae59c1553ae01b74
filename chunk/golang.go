package chunk

import (
	"bytes"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/bcindex/bcindex/chunk/vocab"
)

// visitGo chunks one top-level Go declaration. Methods are children of the
// file chunk, named by the method alone; the receiver is in the signature.
func visitGo(w *walker, it item, parent int, _ bool) {
	switch it.typ {
	case "function_declaration", "method_declaration":
		start, doc := w.docAbove(it)
		kind := vocab.KindFunction
		if it.typ == "method_declaration" {
			kind = vocab.KindMethod
		}
		name := w.text(it.n.ChildByFieldName("name"))
		w.add(kind, name, parent, start, it.end, w.sig(it.start, it.n), doc, it.n)
	case "type_declaration":
		specs := w.children(it.n)
		n := 0
		for _, s := range specs {
			if s.typ == "type_spec" || s.typ == "type_alias" {
				n++
			}
		}
		if n == 1 {
			// type T ...: the chunk is the whole declaration with its doc.
			start, doc := w.docAbove(it)
			for _, s := range specs {
				if s.typ == "type_spec" || s.typ == "type_alias" {
					w.goTypeSpec(s, parent, start, it.end, doc)
				}
			}
			return
		}
		// type ( ... ): one chunk per spec, with the comments above it inside the group.
		for i, s := range specs {
			if s.typ == "type_spec" || s.typ == "type_alias" {
				s.prev = specs[:i]
				start, doc := w.docAbove(s)
				w.goTypeSpec(s, parent, start, s.end, doc)
			}
		}
	case "var_declaration", "const_declaration":
		kind := vocab.KindConst
		if it.typ == "var_declaration" {
			kind = vocab.KindVar
		}
		specs := w.children(it.n)
		if len(specs) == 1 && specs[0].typ == "var_spec_list" {
			specs = w.children(specs[0].n) // var ( ... )
		}
		// var x = 1: the chunk is the whole declaration with its doc. In a
		// group, even of one, each spec is a chunk with the comments above
		// it inside the group (so that a group losing its last but one spec
		// does not change the chunk of the other: Edit relies on it).
		if len(specs) == 1 && !hasChild(it.n, "(") {
			start, doc := w.docAbove(it)
			w.constChunk(kind, specs[0].n.ChildByFieldName("name"), parent, start, it.end, doc, it.n)
			return
		}
		for i, s := range specs {
			if s.typ == "var_spec" || s.typ == "const_spec" {
				s.prev = specs[:i]
				start, doc := w.docAbove(s)
				w.constChunk(kind, s.n.ChildByFieldName("name"), parent, start, s.end, doc, s.n)
			}
		}
	case "package_clause":
		_, doc := w.docAbove(it)
		w.chunks[0].Doc = doc
		w.chunks[0].Signature = collapse(w.src[it.start:it.end])
	case "ERROR":
		w.into(it.n, parent, false)
	}
}

// goTypeSpec adds the chunk of one type spec spanning [start, end).
func (w *walker) goTypeSpec(s item, parent, start, end int, doc string) {
	kind := vocab.KindType
	sigEnd := s.end
	if t := s.n.ChildByFieldName("type"); t != nil {
		switch t.Type() {
		case "struct_type":
			kind = vocab.KindStruct
		case "interface_type":
			kind = vocab.KindInterface
		}
		if kind != vocab.KindType {
			ts := int(t.StartByte())
			if i := bytes.IndexByte(w.src[ts:s.end], '{'); i >= 0 {
				sigEnd = ts + i
			}
		}
	}
	sig := collapse(w.src[s.start:sigEnd])
	if !strings.HasPrefix(sig, "type ") {
		sig = collapse([]byte("type " + sig))
	}
	w.add(kind, w.text(s.n.ChildByFieldName("name")), parent, start, end, sig, doc, s.n)
}

// constChunk adds a chunk of kind (vocab.KindConst or vocab.KindVar) for a top-level
// constant or variable named by name, spanning [start, end): a name
// defined once at the top of a file is a symbol, whatever its size. Its
// signature is its first line, without an opening bracket.
func (w *walker) constChunk(kind string, name *sitter.Node, parent, start, end int, doc string, n *sitter.Node) {
	if name == nil || parent != 0 {
		return
	}
	w.add(kind, w.text(name), parent, start, end, w.firstLineSig(int(n.StartByte()), end), doc, n)
}

// firstLineSig is the signature of a value definition starting at ns: its
// first line up to end, without a trailing "{", "[", "(" or "=".
func (w *walker) firstLineSig(ns, end int) string {
	e := ns
	for e < end && w.src[e] != '\n' {
		e++
	}
	return strings.TrimSpace(strings.TrimRight(collapse(w.src[ns:e]), "{[(= "))
}

// hasChild reports whether n has a direct child of type typ (anonymous
// tokens included).
func hasChild(n *sitter.Node, typ string) bool {
	for i := 0; i < int(n.ChildCount()); i++ {
		if n.Child(i).Type() == typ {
			return true
		}
	}
	return false
}
