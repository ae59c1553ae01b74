package chunk

import (
	"fmt"
	"os"
	"strings"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"
)

// TestDumpTree prints the syntax tree of $DUMP (debugging aid).
func TestDumpTree(t *testing.T) {
	p := os.Getenv("DUMP")
	if p == "" {
		t.Skip()
	}
	src, _ := os.ReadFile(p)
	lang := DetectLanguage(p, src)
	g := grammarFor(lang)
	parser := sitter.NewParser()
	parser.SetLanguage(g.lang)
	tree := parser.Parse(nil, src)
	var walk func(n *sitter.Node, field string, d int)
	walk = func(n *sitter.Node, field string, d int) {
		if d > 5 {
			return
		}
		txt := strings.SplitN(n.Content(src), "\n", 2)[0]
		if len(txt) > 40 {
			txt = txt[:40]
		}
		fmt.Printf("%s%s%s [%d] %q\n", strings.Repeat("  ", d), field, n.Type(), n.StartPoint().Row+1, txt)
		c := sitter.NewTreeCursor(n)
		defer c.Close()
		for ok := c.GoToFirstChild(); ok; ok = c.GoToNextSibling() {
			k := c.CurrentNode()
			if !k.IsNamed() {
				continue
			}
			f := c.CurrentFieldName()
			if f != "" {
				f += ": "
			}
			walk(k, f, d+1)
		}
	}
	walk(tree.RootNode(), "", 0)
}
