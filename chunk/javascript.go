package chunk

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/bcindex/bcindex/chunk/vocab"
)

// visitJS chunks JavaScript, TypeScript and TSX: functions, classes and their
// methods, interfaces, type aliases, enums, and functions or classes assigned
// to a top-level variable or export. export, declare and decorators are part
// of the chunk; namespaces are looked through.
func visitJS(w *walker, it item, parent int, inClass bool) {
	start, doc := w.docAbove(it)
	w.jsDecl(it.n, it.typ, span{start, it.end, afterDecorators(it.n)}, doc, parent, inClass)
}

// span is the byte range of a chunk and where its signature starts.
type span struct{ start, end, sig int }

// jsDecl chunks declaration n spanning sp: n itself or wrapped in export or
// declare.
func (w *walker) jsDecl(n *sitter.Node, typ string, sp span, doc string, parent int, inClass bool) {
	switch typ {
	case "function_declaration", "generator_function_declaration", "function_signature":
		w.add(vocab.KindFunction, w.text(n.ChildByFieldName("name")), parent, sp.start, sp.end, w.sig(sp.sig, n), doc, n)
	case "class_declaration", "abstract_class_declaration":
		i := w.add(vocab.KindClass, w.text(n.ChildByFieldName("name")), parent, sp.start, sp.end, w.sig(sp.sig, n), doc, n)
		w.into(n.ChildByFieldName("body"), i, true)
	case "interface_declaration":
		w.add(vocab.KindInterface, w.text(n.ChildByFieldName("name")), parent, sp.start, sp.end, w.sig(sp.sig, n), doc, n)
	case "type_alias_declaration":
		w.add(vocab.KindType, w.text(n.ChildByFieldName("name")), parent, sp.start, sp.end, w.sig(sp.sig, n), doc, n)
	case "enum_declaration":
		i := w.add(vocab.KindEnum, w.text(n.ChildByFieldName("name")), parent, sp.start, sp.end, w.sig(sp.sig, n), doc, n)
		w.jsEnumMembers(n.ChildByFieldName("body"), i)
	case "method_definition", "method_signature", "abstract_method_signature":
		if inClass {
			w.add(vocab.KindMethod, w.text(n.ChildByFieldName("name")), parent, sp.start, sp.end, w.sig(sp.sig, n), doc, n)
		}
	case "public_field_definition", "field_definition":
		// Class fields holding a function are methods: handler = () => {...}.
		v := n.ChildByFieldName("value")
		name := n.ChildByFieldName("name")
		if name == nil {
			name = n.ChildByFieldName("property")
		}
		if inClass && v != nil && isJSFunc(v.Type()) {
			w.add(vocab.KindMethod, w.text(name), parent, sp.start, sp.end, w.sig(sp.sig, v), doc, n)
		}
	case "export_statement":
		if d := n.ChildByFieldName("declaration"); d != nil {
			w.jsDecl(d, d.Type(), sp, doc, parent, inClass)
		} else if v := n.ChildByFieldName("value"); v != nil {
			w.jsValue(n, v, "default", vocab.KindConst, sp, doc, parent)
		}
	case "ambient_declaration":
		// declare function f(): void; declare module "x" { ... }
		for _, c := range w.children(n) {
			w.jsDecl(c.n, c.typ, sp, doc, parent, inClass)
		}
	case "lexical_declaration", "variable_declaration":
		decls := w.children(n)
		for _, d := range decls {
			if d.typ != "variable_declarator" {
				continue
			}
			v := d.n.ChildByFieldName("value")
			if v == nil {
				continue
			}
			dsp, dc := span{d.start, d.end, d.start}, ""
			if len(decls) == 1 {
				dsp, dc = sp, doc
			}
			kind := vocab.KindVar
			if strings.HasPrefix(w.text(n), "const") {
				kind = vocab.KindConst
			}
			w.jsValue(n, v, w.text(d.n.ChildByFieldName("name")), kind, dsp, dc, parent)
		}
	case "expression_statement":
		e := n.NamedChild(0)
		if e == nil {
			return
		}
		switch e.Type() {
		case "internal_module", "module":
			w.jsDecl(e, e.Type(), sp, doc, parent, inClass)
		case "assignment_expression":
			// module.exports.f = function () {}; Foo.prototype.m = () => {}
			l, v := e.ChildByFieldName("left"), e.ChildByFieldName("right")
			if l == nil || v == nil {
				return
			}
			if p := l.ChildByFieldName("property"); p != nil {
				l = p
			}
			w.jsValue(n, v, w.text(l), "", sp, doc, parent)
		}
	case "internal_module", "module":
		w.into(n.ChildByFieldName("body"), parent, false)
	case "ERROR":
		w.into(n, parent, inClass)
	}
}

// jsValue adds a chunk when value v of declaration decl is a function or a
// class expression, named by its own name or else by name; any other value
// of a top-level declaration is a chunk of kind (vocab.KindConst for const,
// vocab.KindVar for let and var; "": an assignment, not a definition).
func (w *walker) jsValue(decl, v *sitter.Node, name, kind string, sp span, doc string, parent int) {
	t := v.Type()
	if own := v.ChildByFieldName("name"); own != nil && name == "default" {
		name = w.text(own)
	}
	switch {
	case isJSFunc(t):
		w.add(vocab.KindFunction, name, parent, sp.start, sp.end, w.sig(sp.sig, v), doc, decl)
	case t == "class":
		i := w.add(vocab.KindClass, name, parent, sp.start, sp.end, w.sig(sp.sig, v), doc, decl)
		w.into(v.ChildByFieldName("body"), i, true)
	case kind != "" && parent == 0 && name != "":
		w.add(kind, name, parent, sp.start, sp.end, w.firstLineSig(sp.sig, sp.end), doc, decl)
	}
}

func isJSFunc(t string) bool {
	switch t {
	case "arrow_function", "function_expression", "function", "generator_function":
		return true
	}
	return false
}

// afterDecorators is where n starts once its decorators are skipped.
func afterDecorators(n *sitter.Node) int {
	c := sitter.NewTreeCursor(n)
	defer c.Close()
	for ok := c.GoToFirstChild(); ok; ok = c.GoToNextSibling() {
		k := c.CurrentNode()
		if t := k.Type(); t != "decorator" && t != "comment" {
			return int(k.StartByte())
		}
	}
	return int(n.StartByte())
}
