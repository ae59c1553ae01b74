package bcindex

import (
	"slices"
	"strings"
	"testing"
)

// readPathWithoutCgo are the packages a query goes through that must build
// with CGO_ENABLED=0 for every platform (.ci/run builds them for windows,
// darwin and linux/arm64 and checks the same list): the vocabulary they
// share with the chunker lives in chunk/vocab, the MCP server and the web
// pages receive the indexer from the command (indexing.Ensure), and only
// the chunker's parsers link tree-sitter.
var readPathWithoutCgo = []string{"chunk/vocab", "segment", "store", "indexing", "search", "timeline", "similar", "mcp", "web"}

// TestReadPathWithoutCgo: no package of the read path depends on
// tree-sitter, directly or through another package.
func TestReadPathWithoutCgo(t *testing.T) {
	const module = "github.com/bcindex/bcindex/"
	const cgo = "github.com/smacker/go-tree-sitter"
	seen := map[string]bool{}
	for _, fields := range goList(t, `{{.ImportPath}} {{join .Deps " "}}`) {
		pkg, ok := strings.CutPrefix(fields[0], module)
		if !ok || !slices.Contains(readPathWithoutCgo, pkg) {
			continue
		}
		seen[pkg] = true
		for _, dep := range fields[1:] {
			if dep == cgo || strings.HasPrefix(dep, cgo+"/") {
				t.Errorf("%s depends on %s (cgo); the read path must build without cgo: take what it needs from chunk/vocab or the index", pkg, dep)
				break
			}
		}
	}
	for _, pkg := range readPathWithoutCgo {
		if !seen[pkg] {
			t.Errorf("%s is no package of the module: is the read path's list still right?", pkg)
		}
	}
}
