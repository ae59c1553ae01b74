package web

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestFrontEndsStandApart checks that neither the web page nor the MCP
// server links the other: the path rules they share live in
// internal/safepath, so that changing one front end never reaches into the
// other.
func TestFrontEndsStandApart(t *testing.T) {
	const m = "github.com/bcindex/bcindex/"
	tests := []struct {
		pkg    string
		needs  string
		refuse []string
	}{
		{m + "web", m + "internal/safepath", []string{m + "mcp", m + "cluster"}},
		{m + "mcp", m + "internal/safepath", []string{m + "web", m + "cluster"}},
	}
	for _, tt := range tests {
		out, err := exec.Command("go", "list", "-deps", tt.pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps %s: %v\n%s", tt.pkg, err, out)
		}
		deps := strings.Fields(string(out))
		if !slices.Contains(deps, tt.needs) {
			t.Errorf("%s does not link %s, where the path rules live", tt.pkg, tt.needs)
		}
		for _, other := range tt.refuse {
			if slices.Contains(deps, other) {
				t.Errorf("%s links the front end %s: what they share belongs in a package of its own", tt.pkg, other)
			}
		}
	}
}
