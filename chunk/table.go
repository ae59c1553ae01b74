package chunk

import (
	"bytes"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/bcindex/bcindex/chunk/vocab"
)

// langSpec describes a language for the table-driven visitor: which nodes are
// definitions, which are looked through, and which siblings belong to the
// definition that follows them.
type langSpec struct {
	// defs maps a node type to the chunk it makes.
	defs map[string]defSpec
	// through lists node types whose children are visited in place of the
	// node (namespaces, preprocessor conditionals, export wrappers...), with
	// the field or child type holding them ("" for the node's own children).
	through map[string]string
	// firstLine: signatures are the first line of the definition.
	firstLine bool
	// attrs are sibling node types placed before a definition that belong to
	// it (Rust #[attributes], decorators).
	attrs map[string]bool
	// codeEnds: a definition ends at its last token of code (codeEnd).
	// Scala's indented bodies take in the blank lines and comments up to
	// the next definition, whose chunk would overlap them.
	codeEnds bool
}

// defSpec says how one definition node becomes a chunk.
type defSpec struct {
	kind string // vocab.KindFunction turns into vocab.KindMethod inside a class-like body
	// name is the field holding the name, "" for the first identifier-like
	// child; nameFn overrides both.
	name   string
	nameFn func(w *walker, n *sitter.Node) string
	// body lists fields or child types holding the members of a class-like
	// definition (visited with inClass) or the body of a function (which ends
	// the signature). The first one present is used; "a/b" is field or type b
	// of a, "." the node itself.
	body []string
	// members: the body holds class members (methods, nested types).
	members bool
	// kindFn overrides kind from the node's text (Kotlin "interface").
	kindFn func(w *walker, n *sitter.Node) string
	// topOnly: only directly under the file or a namespace, not in a class.
	topOnly bool
}

// identTypes are node types that can name a definition when there is no
// name field.
var identTypes = map[string]bool{
	"identifier": true, "type_identifier": true, "simple_identifier": true,
	"constant": true, "word": true, "name": true, "field_identifier": true,
	"property_identifier": true, "value_name": true, "module_name": true,
	"type_constructor": true, "class_name": true, "message_name": true,
	"enum_name": true, "service_name": true, "rpc_name": true,
	"scope_resolution": true, "qualified_identifier": true,
}

// visitTable is the visit function of table-driven languages.
func visitTable(w *walker, it item, parent int, inClass bool) {
	s := w.g.spec
	if f, ok := s.through[it.typ]; ok || it.typ == "ERROR" {
		n := it.n
		if f != "" {
			n = fieldOrChild(it.n, f)
		}
		w.into(n, parent, inClass)
		return
	}
	d, ok := s.defs[it.typ]
	if !ok || (d.topOnly && inClass) {
		return
	}
	name := ""
	switch {
	case d.nameFn != nil:
		name = d.nameFn(w, it.n)
	case d.name != "":
		name = w.text(it.n.ChildByFieldName(d.name))
	}
	if name == "" && d.nameFn == nil {
		name = w.text(firstIdent(it.n))
	}
	name = collapse([]byte(name))
	if name == "" && d.nameFn != nil {
		return // a nameless variant (OCaml let () = ..., C typedef of nothing)
	}
	var body *sitter.Node
	for _, b := range d.body {
		if body = bodyPath(it.n, b); body != nil {
			break
		}
	}
	kind := d.kind
	if d.kindFn != nil {
		if kind = d.kindFn(w, it.n); kind == "" {
			return
		}
	}
	// Some grammars (Lua) start a node at the end of the previous one.
	for it.start < it.end && isBlank(w.src[it.start]) {
		it.start++
	}
	if kind == vocab.KindFunction && inClass {
		kind = vocab.KindMethod
	}
	start, doc := w.docAbove(it)
	sigBody, sigStart := body, it.start
	if s.firstLine || body == it.n {
		sigBody = nil
	}
	if dn := it.n.ChildByFieldName("documentation"); dn != nil {
		// Lua: the doc comment is the first child of the function.
		doc = cleanComment(w.text(dn))
		sigStart = int(dn.EndByte())
		for sigStart < it.end && isBlank(w.src[sigStart]) {
			sigStart++
		}
	}
	end := it.end
	if s.codeEnds {
		end = codeEnd(it.n, it.start)
		end = max(end, endMarker(w.src, it.end, name))
	}
	i := w.add(kind, name, parent, start, end, w.sigTo(sigStart, it.n, sigBody), doc, it.n)
	if doc == "" && body != nil && body != it.n {
		w.chunks[i].Doc = w.innerDoc(w.children(body))
	}
	if d.members && body != nil {
		// Functions in a class body are methods, not those of a module.
		w.into(body, i, kind != vocab.KindModule)
	}
}

// codeEnd is where n's last token of code ends: its last child that is
// neither a comment nor empty, followed down to a leaf. It is never before
// start.
func codeEnd(n *sitter.Node, start int) int {
	for depth := 0; depth < 200; depth++ {
		var last *sitter.Node
		for i := int(n.ChildCount()) - 1; i >= 0; i-- {
			c := n.Child(i)
			if c != nil && !isComment(c.Type()) && c.EndByte() > c.StartByte() {
				last = c
				break
			}
		}
		if last == nil {
			break
		}
		n = last
	}
	return max(int(n.EndByte()), start)
}

// endMarker is the end of a Scala 3 end marker ("end Name" on a line of
// its own) of the definition called name when one is the next code from
// from, else 0. The grammar leaves the marker out of the definition's node.
func endMarker(src []byte, from int, name string) int {
	i := from
	for i < len(src) && isBlank(src[i]) {
		i++
	}
	ls := bytes.LastIndexByte(src[:i], '\n') + 1
	if ls == 0 || len(bytes.TrimSpace(src[ls:i])) > 0 || !bytes.HasPrefix(src[i:], []byte("end ")) {
		return 0
	}
	e := len(src)
	if j := bytes.IndexByte(src[i:], '\n'); j >= 0 {
		e = i + j
	}
	if string(bytes.TrimSpace(src[i+len("end "):e])) != name {
		return 0
	}
	return len(bytes.TrimRight(src[:e], " \t\r"))
}

// bodyPath resolves a defSpec body entry.
func bodyPath(n *sitter.Node, p string) *sitter.Node {
	if p == "." {
		return n
	}
	for _, f := range strings.Split(p, "/") {
		if n == nil {
			return nil
		}
		n = fieldOrChild(n, f)
	}
	return n
}

func isBlank(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// fieldOrChild returns n's child in field f, or else its first named child
// of type f.
func fieldOrChild(n *sitter.Node, f string) *sitter.Node {
	if c := n.ChildByFieldName(f); c != nil {
		return c
	}
	for i := 0; i < int(n.NamedChildCount()); i++ {
		if c := n.NamedChild(i); c.Type() == f {
			return c
		}
	}
	return nil
}

// firstIdent returns the first identifier-like named child of n, looking
// one level into modifiers-free wrappers.
func firstIdent(n *sitter.Node) *sitter.Node {
	for i := 0; i < int(n.NamedChildCount()); i++ {
		if c := n.NamedChild(i); identTypes[c.Type()] {
			return c
		}
	}
	return nil
}

// sigTo is the whitespace-collapsed source from start up to body, or the
// first line of n (without a trailing brace) when there is no body.
func (w *walker) sigTo(start int, n, body *sitter.Node) string {
	end := int(n.EndByte())
	if body != nil && int(body.StartByte()) >= start {
		end = int(body.StartByte())
	} else if i := strings.IndexByte(string(w.src[start:end]), '\n'); i >= 0 {
		end = start + i
	}
	if end <= start {
		return ""
	}
	s := collapse(w.src[start:end])
	s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(s, "{}"), "{"), "="))
	return strings.TrimSuffix(strings.TrimSuffix(s, ";"), ":")
}

// declName finds the name inside a C/C++ declarator chain.
func declName(w *walker, n *sitter.Node) string {
	for d := n; d != nil; {
		switch d.Type() {
		case "identifier", "field_identifier", "type_identifier", "qualified_identifier",
			"operator_name", "destructor_name", "primitive_type":
			return w.text(d)
		}
		next := d.ChildByFieldName("declarator")
		if next == nil {
			next = firstIdent(d)
		}
		if next == nil && d.NamedChildCount() > 0 {
			next = d.NamedChild(0) // (*callback)
		}
		if next == nil {
			return ""
		}
		d = next
	}
	return ""
}
