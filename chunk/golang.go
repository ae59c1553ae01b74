package chunk

import (
	"bytes"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// visitGo chunks one top-level Go declaration. Methods are children of the
// file chunk, named by the method alone; the receiver is in the signature.
func visitGo(w *walker, it item, parent int, _ bool) {
	switch it.typ {
	case "function_declaration", "method_declaration":
		start, doc := w.docAbove(it)
		kind := KindFunction
		if it.typ == "method_declaration" {
			kind = KindMethod
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
		specs := w.children(it.n)
		if len(specs) == 1 {
			start, doc := w.docAbove(it)
			w.constChunk(specs[0].n.ChildByFieldName("name"), parent, start, it.end, doc, it.n)
			return
		}
		for i, s := range specs {
			if s.typ == "var_spec" || s.typ == "const_spec" {
				s.prev = specs[:i]
				start, doc := w.docAbove(s)
				w.constChunk(s.n.ChildByFieldName("name"), parent, start, s.end, doc, s.n)
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
	kind := KindType
	sigEnd := s.end
	if t := s.n.ChildByFieldName("type"); t != nil {
		switch t.Type() {
		case "struct_type":
			kind = KindStruct
		case "interface_type":
			kind = KindInterface
		}
		if kind != KindType {
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

// constChunk adds a KindConst chunk for a top-level constant or variable
// named by name when [start, end) has at least constMinLines lines: a large
// literal is worth its own chunk, a one-liner stays in the file chunk.
func (w *walker) constChunk(name *sitter.Node, parent, start, end int, doc string, n *sitter.Node) {
	if name == nil || parent != 0 {
		return
	}
	sl, el := w.li.lines(start, end)
	if el-sl+1 < constMinLines {
		return
	}
	ns := int(n.StartByte())
	e := ns
	for e < end && w.src[e] != '\n' {
		e++
	}
	sig := strings.TrimSpace(strings.TrimRight(collapse(w.src[ns:e]), "{[(= "))
	w.add(KindConst, w.text(name), parent, start, end, sig, doc, n)
}
