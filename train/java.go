package train

import (
	"context"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/java"
)

// Java methods are found here with tree-sitter's Java grammar, as when the
// shipped model was mined (package chunk had no Java grammar then): every
// method and constructor, with the /** Javadoc */ directly above it as its
// doc. Mining Java through chunk.Split instead changes the corpus, so it
// waits for the next model; the other languages go through chunk.Split.

type javaDef struct {
	doc  string
	code string // the method without its Javadoc
}

func splitJava(src []byte) []javaDef {
	p := sitter.NewParser()
	defer p.Close()
	p.SetLanguage(java.GetLanguage())
	tree, err := p.ParseCtx(context.Background(), nil, src)
	if err != nil || tree == nil {
		return nil
	}
	defer tree.Close()
	var out []javaDef
	var walk func(n *sitter.Node, depth int)
	walk = func(n *sitter.Node, depth int) {
		if depth > 12 {
			return
		}
		for i := 0; i < int(n.NamedChildCount()); i++ {
			c := n.NamedChild(i)
			switch c.Type() {
			case "method_declaration", "constructor_declaration":
				d := javaDef{code: string(src[c.StartByte():c.EndByte()])}
				if prev := c.PrevNamedSibling(); prev != nil && prev.Type() == "block_comment" {
					t := string(src[prev.StartByte():prev.EndByte()])
					if strings.HasPrefix(t, "/**") {
						d.doc = cleanJavadoc(t)
					}
				}
				out = append(out, d)
			case "class_declaration", "interface_declaration", "enum_declaration", "record_declaration",
				"class_body", "interface_body", "enum_body", "enum_body_declarations":
				walk(c, depth+1)
			}
		}
	}
	walk(tree.RootNode(), 0)
	return out
}

// cleanJavadoc strips /** */ and the leading asterisks.
func cleanJavadoc(s string) string {
	s = strings.TrimSuffix(strings.TrimPrefix(s, "/**"), "*/")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		l = strings.TrimSpace(l)
		l = strings.TrimPrefix(l, "*")
		lines[i] = strings.TrimSpace(l)
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}
