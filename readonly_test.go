package bcindex

import (
	"slices"
	"strings"
	"testing"
)

// readers are the packages that answer queries. They read through a view
// or a snapshot opened read-only (package store, which exports no write);
// everything that writes the store (the Badger database, the manifest,
// the lock, the value log's rewriting, the summary index) is in
// store/storewrite, which they must not reach, directly or through
// another package (the indexer, gc, share and enhance import it).
var readers = []string{"search", "grep", "grep/gitgrep", "timeline", "similar", "pickaxe", "mcp", "web", "indexing", "query"}

// storeWriter is the write half of the store.
const storeWriter = "store/storewrite"

// TestReadersCannotWrite: no reader depends on the store's write half, by
// the import graph (go list -deps), so no write function is reachable from
// a query.
func TestReadersCannotWrite(t *testing.T) {
	const module = "github.com/bcindex/bcindex/"
	seen := map[string]bool{}
	for _, fields := range goList(t, `{{.ImportPath}} {{join .Deps " "}}`) {
		pkg, ok := strings.CutPrefix(fields[0], module)
		if !ok {
			continue
		}
		seen[pkg] = true
		if !slices.Contains(readers, pkg) {
			continue
		}
		for _, dep := range fields[1:] {
			if dep == module+storeWriter {
				t.Errorf("%s, a reader, depends on %s: a query must not reach the store's writes (read through store's views and snapshots)", pkg, storeWriter)
			}
		}
	}
	for _, pkg := range append([]string{storeWriter}, readers...) {
		if !seen[pkg] {
			t.Errorf("%s is no package of the module: is the readers' list still right?", pkg)
		}
	}
}

// TestReadersWriteCachesThroughCacheAPI: a reader that keeps a derived
// file (pickaxe's change tables) writes it through internal/cache, which
// locks the entry and never waits, and imports no lower-level file writer
// itself, by the import lists (go list .Imports).
func TestReadersWriteCachesThroughCacheAPI(t *testing.T) {
	const (
		module   = "github.com/bcindex/bcindex/"
		writer   = module + "internal/atomicfile"
		cacheAPI = module + "internal/cache"
	)
	imports := map[string][]string{}
	for _, fields := range goList(t, `{{.ImportPath}} {{join .Imports " "}}`) {
		if pkg, ok := strings.CutPrefix(fields[0], module); ok {
			imports[pkg] = fields[1:]
		}
	}
	for _, pkg := range readers {
		if slices.Contains(imports[pkg], writer) {
			t.Errorf("%s, a reader, imports %s: write its caches through %s (Dir.Put)", pkg, writer, cacheAPI)
		}
	}
	if !slices.Contains(imports["pickaxe"], cacheAPI) {
		t.Errorf("pickaxe does not import %s: where does it write its change tables?", cacheAPI)
	}
}
