package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bcindex/bcindex/chunk"
	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

const retryV1 = `package net

import "time"

// Retry calls fn until it succeeds.
func Retry(fn func() error, attempts int) error {
	var err error
	for i := 0; i < attempts; i++ {
		if err = fn(); err == nil {
			return nil
		}
		time.Sleep(10 * time.Millisecond)
	}
	return err
}
`

const configPy = `import json


class ConfigLoader:
    """Loads settings from disk."""

    def parse_config_file(self, path):
        """Parse the config file at path and return a dict."""
        with open(path) as f:
            return json.load(f)

    def reload(self):
        return self.parse_config_file(self.path)


def unrelated_helper(x):
    return x * 2
`

// fixture is a repository with two commits: v1 (tag) and HEAD, where
// net/retry.go differs and HEAD adds symlinks, a binary and a long file.
type fixture struct {
	dir      string
	v1, head string
	repo     *gitindex.Repo
}

// loopGo has a function long enough for micro chunks (blocks).
var loopGo = func() string {
	var b strings.Builder
	b.WriteString("package net\n\n// Sum adds things up slowly.\nfunc Sum(xs []int) int {\n\ttotal := 0\n\tfor _, x := range xs {\n")
	for i := 0; i < 8; i++ {
		fmt.Fprintf(&b, "\t\ttotal += x * %d\n", i)
	}
	b.WriteString("\t}\n")
	for i := 0; i < 50; i++ {
		fmt.Fprintf(&b, "\ttotal += %d\n", i)
	}
	b.WriteString("\treturn total\n}\n")
	return b.String()
}()

var longText = func() string {
	var b strings.Builder
	for i := 1; i <= 1200; i++ {
		fmt.Fprintf(&b, "line %d of a long file\n", i)
	}
	return b.String()
}()

func newFixture(t *testing.T) *fixture {
	t.Helper()
	r := gittest.New(t)
	v1 := r.Commit("v1", map[string]string{
		"net/retry.go":   retryV1,
		"py/config.py":   configPy,
		"README.md":      "# Demo\n\nA demo repository.\n",
		"scripts/deploy": "#!/usr/bin/env python3\nprint('deploy')\n",
	})
	r.Git("tag", "v1")
	r.Write(map[string]string{"net/retry.go": gittest.RetryGo, "net/loop.go": loopGo, "docs/long.txt": longText, "data.bin": "ab\x00cd"})
	for link, target := range map[string]string{"escape": "/", "etc": "../../etc", "readme-link": "README.md"} {
		if err := os.Symlink(target, filepath.Join(r.Dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	head := r.Commit("v2", nil)
	repo, err := gitindex.OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{dir: r.Dir, v1: v1, head: head, repo: repo}
}

// client is a connected SDK client with the progress notifications it got.
type client struct {
	cs       *sdk.ClientSession
	mu       sync.Mutex
	progress []*sdk.ProgressNotificationParams
}

// connect serves repo over an in-process transport and returns a client.
func connect(t *testing.T, repo *gitindex.Repo) *client {
	t.Helper()
	return connectServer(t, NewServer(repo, withIndexer(Options{Embedder: embed.Default(), Version: "test"})))
}

// connectServer connects a client to srv over an in-process transport.
func connectServer(t *testing.T, srv *Server) *client {
	t.Helper()
	ctx := context.Background()
	st, ct := sdk.NewInMemoryTransports()
	ss, err := srv.SDK().Connect(ctx, st, nil)
	if err != nil {
		t.Fatalf("server connect: %v", err)
	}
	c := &client{}
	cl := sdk.NewClient(&sdk.Implementation{Name: "bcindex-test", Version: "1"}, &sdk.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
			c.mu.Lock()
			c.progress = append(c.progress, req.Params)
			c.mu.Unlock()
		},
	})
	c.cs, err = cl.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatalf("client connect: %v", err)
	}
	t.Cleanup(func() {
		c.cs.Close()
		ss.Wait()
	})
	return c
}

// call calls a tool; a protocol error fails the test, a tool error does not.
func (c *client) call(t *testing.T, name string, args map[string]any) *sdk.CallToolResult {
	t.Helper()
	res, err := c.cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: protocol error: %v", name, args, err)
	}
	return res
}

// ok calls a tool that must succeed and decodes its structured output.
func ok[T any](t *testing.T, c *client, name string, args map[string]any) (T, string) {
	t.Helper()
	var out T
	res := c.call(t, name, args)
	txt := resultText(res)
	if res.IsError {
		t.Fatalf("%s %v: tool error: %s", name, args, txt)
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("%s: decode structured output: %v\n%s", name, err, b)
	}
	return out, txt
}

func resultText(res *sdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// withIndexer gives opts the indexer and the chunker the command gives a
// server: indexing with opts' embedder, chunks by chunk.Split.
func withIndexer(opts Options) Options {
	opts.Ensure = indexer.Ensurer(indexer.Options{Embedder: opts.Embedder})
	opts.Split = func(path string, content []byte) (string, []Chunk) {
		f := chunk.Split(path, content)
		out := make([]Chunk, len(f.Chunks))
		for i, c := range f.Chunks {
			out[i] = Chunk{Kind: c.Kind, Name: c.Name, Signature: c.Signature, Parent: c.Parent,
				StartLine: c.StartLine, EndLine: c.EndLine, StartByte: c.StartByte, EndByte: c.EndByte}
		}
		return f.Language, out
	}
	return opts
}
