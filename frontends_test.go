package bcindex

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestFrontEndsPassParsedQueries keeps the query parsed once per search:
// the front ends parse the user's text themselves (they highlight with
// the same value), so none of them hands search or the cluster the text
// (a Query field) to parse a second time; they set Parsed.
func TestFrontEndsPassParsedQueries(t *testing.T) {
	fset := token.NewFileSet()
	for _, dir := range []string{"cmd/git-bcindex", "mcp", "web"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, name, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				lit, ok := n.(*ast.CompositeLit)
				if !ok {
					return true
				}
				sel, ok := lit.Type.(*ast.SelectorExpr)
				if !ok || !(sel.Sel.Name == "Options" && isIdent(sel.X, "search") || sel.Sel.Name == "SearchOptions" && isIdent(sel.X, "cluster")) {
					return true
				}
				for _, e := range lit.Elts {
					if kv, ok := e.(*ast.KeyValueExpr); ok && isIdent(kv.Key, "Query") {
						t.Errorf("%s: %s.%s gets the query as text; parse it once (query.Parse) and set Parsed", fset.Position(kv.Pos()), sel.X, sel.Sel.Name)
					}
				}
				return true
			})
		}
	}
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}
