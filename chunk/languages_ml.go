package chunk

// The definitions of OCaml, SQL and HCL, and how their names are read.

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/bcindex/bcindex/chunk/vocab"
)

var ocamlSpec = &langSpec{
	firstLine: true,
	defs: map[string]defSpec{
		"value_definition":       {kind: vocab.KindFunction, nameFn: ocamlLetName},
		"type_definition":        {kind: vocab.KindType, nameFn: ocamlTypeName},
		"module_definition":      {kind: vocab.KindModule, nameFn: ocamlModuleName, members: true, body: []string{"module_binding/body"}},
		"module_type_definition": {kind: vocab.KindInterface, name: "name"},
		"class_definition":       {kind: vocab.KindClass, nameFn: ocamlClassName},
		"exception_definition":   {kind: vocab.KindType},
	},
}

func ocamlLetName(w *walker, n *sitter.Node) string {
	b := fieldOrChild(n, "let_binding")
	if b == nil {
		return ""
	}
	p := b.ChildByFieldName("pattern")
	if p == nil || p.Type() != "value_name" {
		return ""
	}
	return w.text(p)
}

func ocamlTypeName(w *walker, n *sitter.Node) string {
	if b := fieldOrChild(n, "type_binding"); b != nil {
		return w.text(b.ChildByFieldName("name"))
	}
	return ""
}

func ocamlModuleName(w *walker, n *sitter.Node) string {
	if b := fieldOrChild(n, "module_binding"); b != nil {
		return w.text(b.ChildByFieldName("name"))
	}
	return ""
}

func ocamlClassName(w *walker, n *sitter.Node) string {
	if b := fieldOrChild(n, "class_binding"); b != nil {
		return w.text(b.ChildByFieldName("name"))
	}
	return ""
}

var protoSpec = &langSpec{
	firstLine: true,
	defs: map[string]defSpec{
		"message": {kind: vocab.KindStruct, body: []string{"message_body"}, members: true},
		"enum":    {kind: vocab.KindEnum, body: []string{"enum_body"}},
		"service": {kind: vocab.KindInterface, members: true, body: []string{"."}},
		"rpc":     {kind: vocab.KindMethod},
	},
	through: map[string]string{"message_body": ""},
}

var sqlSpec = &langSpec{
	defs: map[string]defSpec{
		"statement": {kind: vocab.KindTable, kindFn: sqlKind, nameFn: sqlName},
	},
	firstLine: true,
}

// sqlKind is the kind of a CREATE statement, "" for other statements.
func sqlKind(w *walker, n *sitter.Node) string {
	c := n.NamedChild(0)
	if c == nil {
		return ""
	}
	switch c.Type() {
	case "create_table", "create_view", "create_materialized_view":
		return vocab.KindTable
	case "create_function", "create_procedure":
		return vocab.KindFunction
	case "create_type":
		return vocab.KindType
	}
	return ""
}

func sqlName(w *walker, n *sitter.Node) string {
	if c := n.NamedChild(0); c != nil {
		return w.text(fieldOrChild(c, "object_reference"))
	}
	return ""
}

var hclSpec = &langSpec{
	defs: map[string]defSpec{
		"block": {kind: vocab.KindKey, nameFn: hclName, body: []string{"body"}, topOnly: true},
	},
	through:   map[string]string{"body": ""},
	firstLine: true,
}

// hclName joins a block's type and labels: resource.aws_instance.web.
func hclName(w *walker, n *sitter.Node) string {
	var parts []string
	for i := 0; i < int(n.NamedChildCount()); i++ {
		c := n.NamedChild(i)
		switch c.Type() {
		case "identifier":
			parts = append(parts, w.text(c))
		case "string_lit":
			parts = append(parts, strings.Trim(w.text(c), `"`))
		}
	}
	return strings.Join(parts, ".")
}
