package chunk

import (
	"strings"
	"sync"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/bash"
	"github.com/smacker/go-tree-sitter/c"
	"github.com/smacker/go-tree-sitter/cpp"
	"github.com/smacker/go-tree-sitter/csharp"
	"github.com/smacker/go-tree-sitter/dockerfile"
	"github.com/smacker/go-tree-sitter/elixir"
	"github.com/smacker/go-tree-sitter/hcl"
	"github.com/smacker/go-tree-sitter/java"
	"github.com/smacker/go-tree-sitter/kotlin"
	"github.com/smacker/go-tree-sitter/lua"
	"github.com/smacker/go-tree-sitter/ocaml"
	"github.com/smacker/go-tree-sitter/php"
	"github.com/smacker/go-tree-sitter/protobuf"
	"github.com/smacker/go-tree-sitter/ruby"
	"github.com/smacker/go-tree-sitter/rust"
	"github.com/smacker/go-tree-sitter/scala"
	"github.com/smacker/go-tree-sitter/sql"
	"github.com/smacker/go-tree-sitter/swift"

	"github.com/bcindex/bcindex/chunk/vocab"
)

// tableGrammars registers the table-driven languages.
func tableGrammars(m map[string]*grammar) {
	add := func(name string, l *sitter.Language, s *langSpec) {
		m[name] = &grammar{lang: l, visit: visitTable, docs: anyComment, spec: s}
	}
	add("java", java.GetLanguage(), javaSpec)
	add("rust", rust.GetLanguage(), rustSpec)
	m["rust"].docs = rustDoc
	add("c", c.GetLanguage(), cSpec)
	add("cpp", cpp.GetLanguage(), cppSpec)
	add("csharp", csharp.GetLanguage(), csharpSpec)
	add("ruby", ruby.GetLanguage(), rubySpec)
	add("php", php.GetLanguage(), phpSpec)
	add("kotlin", kotlin.GetLanguage(), kotlinSpec)
	add("scala", scala.GetLanguage(), scalaSpec)
	add("swift", swift.GetLanguage(), swiftSpec)
	add("shell", bash.GetLanguage(), bashSpec)
	add("lua", lua.GetLanguage(), luaSpec)
	m["lua"].serial = new(sync.Mutex) // its scanner state is a C global
	m["lua"].reset = resetLuaScanner
	add("ocaml", ocaml.GetLanguage(), ocamlSpec)
	add("protobuf", protobuf.GetLanguage(), protoSpec)
	add("sql", sql.GetLanguage(), sqlSpec)
	add("hcl", hcl.GetLanguage(), hclSpec)
	m["elixir"] = &grammar{lang: elixir.GetLanguage(), visit: visitElixir, docs: anyComment}
	m["dockerfile"] = &grammar{lang: dockerfile.GetLanguage(), visit: visitDockerfile, docs: anyComment}
}

// rustDoc keeps /// and /** comments; //! and /*! document the enclosing item.
func rustDoc(src []byte, c item) bool {
	s := string(src[c.start:min(c.end, c.start+3)])
	return s == "///" || s == "/**"
}

func fn(kind string, body ...string) defSpec { return defSpec{kind: kind, name: "name", body: body} }
func class(kind string, body ...string) defSpec {
	return defSpec{kind: kind, name: "name", body: body, members: true}
}

var javaSpec = &langSpec{
	defs: map[string]defSpec{
		"class_declaration":               class(vocab.KindClass, "body"),
		"interface_declaration":           class(vocab.KindInterface, "body"),
		"enum_declaration":                class(vocab.KindEnum, "body"),
		"record_declaration":              class(vocab.KindClass, "body"),
		"annotation_type_declaration":     class(vocab.KindInterface, "body"),
		"method_declaration":              fn(vocab.KindFunction, "body"),
		"constructor_declaration":         fn(vocab.KindFunction, "body"),
		"compact_constructor_declaration": fn(vocab.KindFunction, "body"),
		"field_declaration":               {kind: vocab.KindConst, nameFn: javaConstName},
		"constant_declaration":            {kind: vocab.KindConst, nameFn: javaDeclaratorName},
		"enum_constant":                   {kind: vocab.KindConst, name: "name"},
	},
	through: map[string]string{"enum_body_declarations": ""},
}

var rustSpec = &langSpec{
	defs: map[string]defSpec{
		"function_item":           fn(vocab.KindFunction, "body"),
		"function_signature_item": fn(vocab.KindFunction),
		"struct_item":             fn(vocab.KindStruct, "body"),
		"union_item":              fn(vocab.KindStruct, "body"),
		"enum_item":               class(vocab.KindEnum, "body"),
		"trait_item":              class(vocab.KindTrait, "body"),
		"impl_item":               {kind: vocab.KindImpl, nameFn: rustImplName, body: []string{"body"}, members: true},
		"mod_item":                class(vocab.KindModule, "body"),
		"type_item":               fn(vocab.KindType),
		"macro_definition":        fn(vocab.KindFunction),
		"const_item":              {kind: vocab.KindConst, name: "name"},
		"static_item":             {kind: vocab.KindVar, name: "name"},
		"enum_variant":            {kind: vocab.KindConst, name: "name"},
	},
	attrs: map[string]bool{"attribute_item": true},
}

func rustImplName(w *walker, n *sitter.Node) string {
	t := w.text(n.ChildByFieldName("type"))
	if tr := n.ChildByFieldName("trait"); tr != nil {
		return w.text(tr) + " for " + t
	}
	return t
}

var cDefs = map[string]defSpec{
	"function_definition":  {kind: vocab.KindFunction, nameFn: cFuncName, body: []string{"body"}},
	"struct_specifier":     {kind: vocab.KindStruct, name: "name", body: []string{"body"}},
	"union_specifier":      {kind: vocab.KindStruct, name: "name", body: []string{"body"}},
	"enum_specifier":       {kind: vocab.KindEnum, name: "name", body: []string{"body"}, members: true},
	"enumerator":           {kind: vocab.KindConst, name: "name"},
	"type_definition":      {kind: vocab.KindType, nameFn: cTypedefName},
	"preproc_def":          {kind: vocab.KindConst, name: "name"},
	"preproc_function_def": {kind: vocab.KindFunction, name: "name"},
	"declaration":          {kind: vocab.KindVar, nameFn: cVarName, kindFn: cVarKind},
}

var cThrough = map[string]string{
	"preproc_ifdef": "", "preproc_if": "", "preproc_else": "", "preproc_elif": "",
	"preproc_elifdef": "", "linkage_specification": "body", "declaration_list": "",
}

var cSpec = &langSpec{defs: cDefs, through: cThrough}

func cFuncName(w *walker, n *sitter.Node) string {
	name := declName(w, n.ChildByFieldName("declarator"))
	if i := strings.LastIndex(name, "::"); i >= 0 {
		name = name[i+2:]
	}
	return name
}

func cTypedefName(w *walker, n *sitter.Node) string {
	return declName(w, n.ChildByFieldName("declarator"))
}

var cppSpec = &langSpec{
	defs: merge(cDefs, map[string]defSpec{
		"class_specifier":    {kind: vocab.KindClass, name: "name", body: []string{"body"}, members: true},
		"struct_specifier":   {kind: vocab.KindStruct, name: "name", body: []string{"body"}, members: true},
		"union_specifier":    {kind: vocab.KindStruct, name: "name", body: []string{"body"}, members: true},
		"alias_declaration":  {kind: vocab.KindType, name: "name"},
		"concept_definition": {kind: vocab.KindType, name: "name"},
	}),
	through: merge(cThrough, map[string]string{
		"namespace_definition": "body", "template_declaration": "", "field_declaration_list": "",
		"declaration": "",
	}),
}

var csharpSpec = &langSpec{
	defs: map[string]defSpec{
		"class_declaration":         class(vocab.KindClass, "body"),
		"struct_declaration":        class(vocab.KindStruct, "body"),
		"interface_declaration":     class(vocab.KindInterface, "body"),
		"enum_declaration":          class(vocab.KindEnum, "body"),
		"record_declaration":        class(vocab.KindClass, "body"),
		"record_struct_declaration": class(vocab.KindStruct, "body"),
		"method_declaration":        fn(vocab.KindFunction, "body"),
		"constructor_declaration":   fn(vocab.KindFunction, "body"),
		"destructor_declaration":    fn(vocab.KindFunction, "body"),
		"operator_declaration":      fn(vocab.KindFunction, "body"),
		"local_function_statement":  fn(vocab.KindFunction, "body"),
		"delegate_declaration":      fn(vocab.KindType),
	},
	through: map[string]string{
		"namespace_declaration": "body", "file_scoped_namespace_declaration": "", "declaration_list": "",
		"global_statement": "",
	},
}

var rubySpec = &langSpec{
	firstLine: true,
	defs: map[string]defSpec{
		"class":            {kind: vocab.KindClass, name: "name", members: true, body: []string{"body", "body_statement"}},
		"module":           {kind: vocab.KindModule, name: "name", members: true, body: []string{"body", "body_statement"}},
		"singleton_class":  {kind: vocab.KindClass, nameFn: func(w *walker, n *sitter.Node) string { return "<< " + w.text(n.ChildByFieldName("value")) }, members: true, body: []string{"body", "body_statement"}},
		"method":           fn(vocab.KindFunction, "body", "body_statement"),
		"singleton_method": {kind: vocab.KindFunction, nameFn: rubySingletonName, body: []string{"body", "body_statement"}},
		"assignment":       {kind: vocab.KindConst, nameFn: rubyConstName},
	},
}

func rubySingletonName(w *walker, n *sitter.Node) string {
	return w.text(n.ChildByFieldName("object")) + "." + w.text(n.ChildByFieldName("name"))
}

var phpSpec = &langSpec{
	defs: map[string]defSpec{
		"class_declaration":     class(vocab.KindClass, "body"),
		"interface_declaration": class(vocab.KindInterface, "body"),
		"trait_declaration":     class(vocab.KindTrait, "body"),
		"enum_declaration":      class(vocab.KindEnum, "body"),
		"function_definition":   fn(vocab.KindFunction, "body"),
		"method_declaration":    fn(vocab.KindFunction, "body"),
	},
	through: map[string]string{"namespace_definition": "body", "compound_statement": ""},
}

var kotlinSpec = &langSpec{
	defs: map[string]defSpec{
		"class_declaration":    {kind: vocab.KindClass, nameFn: kotlinClassName, kindFn: keywordKind, body: []string{"class_body", "enum_class_body"}, members: true},
		"object_declaration":   {kind: vocab.KindClass, body: []string{"class_body"}, members: true},
		"companion_object":     {kind: vocab.KindClass, nameFn: func(w *walker, n *sitter.Node) string { return nameOr(w, n, "Companion") }, body: []string{"class_body"}, members: true},
		"function_declaration": {kind: vocab.KindFunction, body: []string{"function_body"}},
		"type_alias":           {kind: vocab.KindType},
	},
}

// kotlinClassName names a class; "interface" and "enum class" are told apart
// by kotlinKind.
func kotlinClassName(w *walker, n *sitter.Node) string { return w.text(firstIdent(n)) }

// keywordKind tells classes, interfaces, enums, structs and extensions apart
// by the keyword before the name (Kotlin, Swift).
func keywordKind(w *walker, n *sitter.Node) string {
	s, e := int(n.StartByte()), int(n.EndByte())
	if id := n.ChildByFieldName("name"); id != nil {
		e = int(id.StartByte())
	} else if id := firstIdent(n); id != nil {
		e = int(id.StartByte())
	}
	for _, f := range strings.Fields(string(w.src[s:e])) {
		switch f {
		case "interface", "protocol":
			return vocab.KindInterface
		case "enum":
			return vocab.KindEnum
		case "struct":
			return vocab.KindStruct
		case "extension":
			return vocab.KindImpl
		}
	}
	return vocab.KindClass
}

func nameOr(w *walker, n *sitter.Node, def string) string {
	if s := w.text(firstIdent(n)); s != "" {
		return s
	}
	return def
}

var scalaSpec = &langSpec{
	defs: map[string]defSpec{
		"class_definition":     class(vocab.KindClass, "body"),
		"object_definition":    class(vocab.KindClass, "body"),
		"trait_definition":     class(vocab.KindTrait, "body"),
		"enum_definition":      class(vocab.KindEnum, "body"),
		"function_definition":  fn(vocab.KindFunction, "body"),
		"function_declaration": fn(vocab.KindFunction),
		"type_definition":      fn(vocab.KindType),
		"given_definition":     fn(vocab.KindFunction, "body"),
	},
	through:  map[string]string{"package_clause": "body", "template_body": ""},
	codeEnds: true,
}

var swiftSpec = &langSpec{
	defs: map[string]defSpec{
		"class_declaration":             {kind: vocab.KindClass, name: "name", kindFn: keywordKind, body: []string{"body"}, members: true},
		"protocol_declaration":          class(vocab.KindInterface, "body"),
		"function_declaration":          fn(vocab.KindFunction, "body"),
		"protocol_function_declaration": fn(vocab.KindFunction),
		"init_declaration":              {kind: vocab.KindFunction, nameFn: func(*walker, *sitter.Node) string { return "init" }, body: []string{"body"}},
		"deinit_declaration":            {kind: vocab.KindFunction, nameFn: func(*walker, *sitter.Node) string { return "deinit" }, body: []string{"body"}},
		"typealias_declaration":         fn(vocab.KindType),
	},
}

var bashSpec = &langSpec{
	defs: map[string]defSpec{"function_definition": fn(vocab.KindFunction, "body")},
}

var luaSpec = &langSpec{
	firstLine: true,
	defs: map[string]defSpec{
		"function_statement":                  fn(vocab.KindFunction, "function_body"),
		"function_declaration":                fn(vocab.KindFunction, "body"),
		"local_function_declaration":          fn(vocab.KindFunction, "body"),
		"function_definition_statement":       fn(vocab.KindFunction, "body"),
		"local_function_definition_statement": fn(vocab.KindFunction, "body"),
	},
}
