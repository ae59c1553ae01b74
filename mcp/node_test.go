package mcp

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestNodeClient drives the real binary with a second, independent client:
// the official TypeScript SDK, spawning `git-bcindex --dir REPO mcp` over
// stdio (testdata/node/client.mjs). It needs node and the SDK installed by
// testdata/node/setup.sh, and is skipped without them.
func TestNodeClient(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs node")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	nodeDir, err := filepath.Abs(filepath.Join("testdata", "node"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(nodeDir, "node_modules", "@modelcontextprotocol", "sdk", "package.json")); err != nil {
		t.Skip("TypeScript MCP SDK not installed; run mcp/testdata/node/setup.sh")
	}
	bin := filepath.Join(t.TempDir(), "git-bcindex")
	build := exec.Command("go", "build", "-o", bin, "github.com/bcindex/bcindex/cmd/git-bcindex")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	f := newFixture(t)

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "client.mjs", bin, f.dir)
	cmd.Dir = nodeDir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node client: %v\nstderr:\n%s\nstdout:\n%s", err, stderr.String(), out)
	}
	var got struct {
		Server struct{ Name string }
		Tools  []string
		Search struct {
			IsError    bool
			Structured searchOut
			Text       string
		}
		Read struct {
			IsError    bool
			Structured readFileOut
			Text       string
		}
		Escape struct {
			IsError bool
			Text    string
		}
		Grep struct {
			IsError    bool
			Structured grepOut
			Text       string
		}
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("decode node output: %v\n%s", err, out)
	}
	if got.Server.Name != "bcindex" || !slices.Contains(got.Tools, "search") || !slices.Contains(got.Tools, "history") || len(got.Tools) != 8 {
		t.Errorf("server %q, tools %v", got.Server.Name, got.Tools)
	}
	if got.Search.IsError || len(got.Search.Structured.Hits) == 0 || got.Search.Structured.Hits[0].Name != "RetryWithBackoff" {
		t.Errorf("search from node: %+v\n%s", got.Search.Structured, got.Search.Text)
	}
	if got.Read.IsError || got.Read.Structured.StartLine != 3 || got.Read.Structured.EndLine != 5 || !strings.Contains(got.Read.Text, "     3\timport \"time\"") {
		t.Errorf("read_file from node: %+v\n%s", got.Read.Structured, got.Read.Text)
	}
	if g := got.Grep.Structured; got.Grep.IsError || len(g.Matches) != 1 || g.Matches[0].Path != "net/retry.go" || g.Matches[0].Line != 15 ||
		len(g.Matches[0].Refs) != 1 || g.Matches[0].Refs[0].Name != "HEAD" || len(g.Matches[0].Spans) != 1 {
		t.Errorf("grep from node: %+v\n%s", g, got.Grep.Text)
	}
	if !got.Escape.IsError || !strings.Contains(got.Escape.Text, "refused") {
		t.Errorf("path escape from node: %+v", got.Escape)
	}
}
