package main

import (
	"strings"
	"testing"

	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// TestSearchFindsDefinitionAfterBrokenOne: a function after one whose block
// is never closed is found by name, as its own hit, not inside the broken
// function's chunk.
func TestSearchFindsDefinitionAfterBrokenOne(t *testing.T) {
	r := gittest.New(t)
	src := "package store\n\nfunc Broken() {\n\tif x {\n\t\treturn\n}\n\n// CompactLedger merges ledger pages.\nfunc CompactLedger(pages int) int {\n\treturn pages / 2\n}\n"
	r.Commit("init", map[string]string{"store/ledger.go": src})
	code, out, errOut := runCLI(t, r.Dir, "search", "--mode", "symbol", "CompactLedger")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	first := strings.SplitN(out, "\n", 2)[0]
	if !strings.Contains(first, "store/ledger.go:8") || !strings.Contains(first, "CompactLedger") {
		t.Errorf("top hit %q, want CompactLedger at store/ledger.go:8 (its doc line)\n%s", first, out)
	}
}
