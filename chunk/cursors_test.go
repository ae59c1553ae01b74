package chunk

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"
)

// A cursor handed back and reset to another node lists that node's
// children as a new cursor does, on every node of real Go files.
func TestReusedCursorWalksLikeNew(t *testing.T) {
	dir := filepath.Join(runtime.GOROOT(), "src", "strings")
	var cs cursors
	defer cs.close()
	nodes := 0
	for _, name := range []string{"strings.go", "builder.go", "replace.go"} {
		src, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Skipf("no Go sources: %v", err)
		}
		tree := parseTree("go", src, nil, 0, nil)
		if tree == nil {
			t.Fatalf("parse %s failed", name)
		}
		var visit func(n *sitter.Node)
		visit = func(n *sitter.Node) {
			nodes++
			fresh := sitter.NewTreeCursor(n)
			want := childTypes(fresh)
			fresh.Close()
			c := cs.at(n)
			got := childTypes(c)
			if !slices.Equal(got, want) {
				t.Fatalf("%s: children of %s at %d: reused cursor %q, new %q", name, n.Type(), n.StartByte(), got, want)
			}
			// Walk the children while c is out, so that the next node
			// takes another cursor or this one, reset.
			for i := range int(n.NamedChildCount()) {
				visit(n.NamedChild(i))
			}
			cs.done(c)
		}
		visit(tree.RootNode())
		tree.Close()
	}
	if len(cs.all) < 2 || nodes < 1000 {
		t.Fatalf("%d nodes walked with %d cursors: the test walked too little", nodes, len(cs.all))
	}
}

func childTypes(c *sitter.TreeCursor) []string {
	var out []string
	for ok := c.GoToFirstChild(); ok; ok = c.GoToNextSibling() {
		k := c.CurrentNode()
		out = append(out, fmt.Sprintf("%s@%d", k.Type(), k.StartByte()))
	}
	return out
}
