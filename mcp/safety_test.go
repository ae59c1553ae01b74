package mcp

import (
	"context"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestPathEscapes tries to read outside the repository through every tool
// that takes a path; each attempt must be a tool error that says why.
func TestPathEscapes(t *testing.T) {
	f := newFixture(t)
	c := connect(t, f.repo)
	attempts := []struct {
		path, want string
	}{
		{"../../etc/passwd", `".." may not appear`},
		{"/etc/passwd", "absolute path"},
		{"escape", "symbolic link"},            // committed symlink to /
		{"escape/etc/passwd", "symbolic link"}, // through it
		{"etc/passwd", "symbolic link"},        // symlink to ../../etc
		{"readme-link", "symbolic link"},       // even one pointing inside
		{"net/retry.go/../../x", `".." may not appear`},
		{"README.md/x", "not a directory"},
	}
	for _, tool := range []string{"read_file", "file_chunks", "list_directory"} {
		for _, a := range attempts {
			if tool == "list_directory" && a.path == "README.md/x" {
				continue
			}
			res := c.call(t, tool, map[string]any{"path": a.path})
			txt := resultText(res)
			if !res.IsError || !strings.Contains(txt, a.want) {
				t.Errorf("%s %q: error=%v %q, want an error about %q", tool, a.path, res.IsError, clip(txt, 300), a.want)
			}
			if strings.Contains(txt, "root:") {
				t.Fatalf("%s %q leaked /etc/passwd", tool, a.path)
			}
		}
	}
}

// TestBadArguments checks that bad input is a tool error and that the
// server keeps serving afterwards.
func TestBadArguments(t *testing.T) {
	f := newFixture(t)
	c := connect(t, f.repo)
	tests := []struct {
		tool string
		args map[string]any
		want string
	}{
		{"search", map[string]any{"query": " "}, "query is required"},
		{"search", map[string]any{"query": "x", "k": 100000}, "ceiling 100"},
		{"search", map[string]any{"query": "x", "k": -1}, "positive"},
		{"search", map[string]any{"query": "x", "k": "ten"}, "validating"},
		{"search", map[string]any{"query": "x", "mode": "fuzzy"}, "unknown search mode"},
		{"search", map[string]any{"query": "x", "path": "[a-"}, "glob"},
		{"search", map[string]any{"query": "x", "offset": 990, "k": 20}, "ceiling 1000"},
		{"search", map[string]any{"query": "x", "context": -2}, "negative"},
		{"search", map[string]any{"query": "x", "rev": "no-such-branch"}, "unknown revision"},
		{"read_file", map[string]any{"path": "nope.go"}, "no file"},
		{"read_file", map[string]any{"path": "retry.go"}, "net/retry.go"}, // suggests the real path
		{"read_file", map[string]any{}, "path"},
		{"read_file", map[string]any{"path": ""}, "path is required"},
		{"read_file", map[string]any{"path": "net"}, "is a directory"},
		{"read_file", map[string]any{"path": "data.bin"}, "binary"},
		{"read_file", map[string]any{"path": "README.md", "start_line": -5}, "positive"},
		{"read_file", map[string]any{"path": "README.md", "start_line": 3, "end_line": 2}, "before start_line"},
		{"read_file", map[string]any{"path": "README.md", "start_line": 50}, "past the end"},
		{"read_file", map[string]any{"path": "README.md", "max_bytes": 1 << 30}, "ceiling"},
		{"read_file", map[string]any{"path": "README.md", "rev": "HEAD~5"}, "unknown revision"},
		{"list_directory", map[string]any{"path": "nope"}, "no directory"},
		{"list_directory", map[string]any{"path": "README.md"}, "is a file"},
		{"list_directory", map[string]any{"depth": -1}, "depth"},
		{"list_directory", map[string]any{"offset": -1}, "offset"},
		{"list_directory", map[string]any{"limit": 1 << 20}, "ceiling"},
		{"file_chunks", map[string]any{"path": "net/retry.go", "limit": -3}, "positive"},
		{"get_chunk", map[string]any{"chunk_id": "nonsense"}, "malformed"},
		{"get_chunk", map[string]any{"chunk_id": strings.Repeat("a", 40) + ":0-10"}, "no blob"},
		{"get_chunk", map[string]any{"chunk_id": f.blob(t, "README.md") + ":0-999999"}, "outside blob"},
		{"get_chunk", map[string]any{"chunk_id": f.blob(t, "README.md") + ":1-3"}, "no chunk spanning"},
		{"index_status", map[string]any{"rev": "nope"}, "unknown revision"},
	}
	for _, tt := range tests {
		res := c.call(t, tt.tool, tt.args)
		if txt := resultText(res); !res.IsError || !strings.Contains(txt, tt.want) {
			t.Errorf("%s %v: error=%v %q, want an error containing %q", tt.tool, tt.args, res.IsError, clip(txt, 300), tt.want)
		}
	}
	if err := c.cs.Ping(context.Background(), nil); err != nil {
		t.Fatalf("server stopped answering after bad arguments: %v", err)
	}
}

func TestPanicBecomesToolError(t *testing.T) {
	f := newFixture(t)
	var log strings.Builder
	srv := NewServer(f.repo, withIndexer(Options{Log: &log}))
	addTool(srv, "boom", "panics", func(context.Context, *sdk.CallToolRequest, indexStatusIn) (*sdk.CallToolResult, indexStatusOut, error) {
		panic("kaboom")
	})
	c := connectServer(t, srv)
	res := c.call(t, "boom", nil)
	if !res.IsError || !strings.Contains(resultText(res), "internal error in boom") || !strings.Contains(log.String(), "kaboom") {
		t.Errorf("panic: error=%v %q, log %q", res.IsError, resultText(res), clip(log.String(), 200))
	}
	if _, txt := ok[readFileOut](t, c, "read_file", map[string]any{"path": "README.md"}); !strings.Contains(txt, "# Demo") {
		t.Errorf("server after a panic: %q", txt)
	}
}

// blob returns the blob SHA of path at HEAD.
func (f *fixture) blob(t *testing.T, path string) string {
	t.Helper()
	c, err := f.repo.Resolve("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	l, err := f.repo.Listing(c.Tree)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range l.Entries {
		if e.Path == path {
			return e.Blob.String()
		}
	}
	t.Fatalf("no %s at HEAD", path)
	return ""
}
