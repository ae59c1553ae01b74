package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/internal/testkit/weaviatetest"
	"github.com/bcindex/bcindex/mcp"
)

// TestPublishAndRemoteSearch drives publish and search --remote through
// the command line against a real one-node Weaviate on loopback.
func TestPublishAndRemoteSearch(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", map[string]string{"store/repo.go": sample, "README.md": "# Store\n\nOpens repositories.\n"})
	r.Git("remote", "add", "origin", "git@github.com:acme/store.git")

	// Without a cluster configured, or with none answering: a clear error,
	// and local search is unaffected.
	code, _, errOut := runCLI(t, r.Dir, "publish")
	if code != 2 || !strings.Contains(errOut, "git config bcindex.remote.url") {
		t.Fatalf("publish without a cluster: exit %d: %s", code, errOut)
	}
	l, _ := net.Listen("tcp", "127.0.0.1:0")
	dead := fmt.Sprintf("http://%s", l.Addr())
	l.Close()
	r.Git("config", "bcindex.remote.url", dead)
	code, _, errOut = runCLI(t, r.Dir, "search", "--remote", "open the repository")
	if code != 2 || !strings.Contains(errOut, dead) || !strings.Contains(errOut, "cluster unreachable") {
		t.Fatalf("search --remote of a dead cluster: exit %d: %s", code, errOut)
	}
	if code, out, errOut := runCLI(t, r.Dir, "search", "OpenRepository"); code != 0 || !strings.Contains(out, "store/repo.go") {
		t.Fatalf("local search with a dead cluster configured: exit %d: %s %s", code, out, errOut)
	}
	if code, _, errOut := runCLI(t, r.Dir, "search", "--repo", "x", "q"); code != 2 || !strings.Contains(errOut, "--remote") {
		t.Fatalf("--repo without --remote: exit %d: %s", code, errOut)
	}

	srv := weaviatetest.Start(t, 1)
	r.Git("config", "bcindex.remote.url", srv.URL())
	code, out, errOut := runCLI(t, r.Dir, "publish", "--json")
	if code != 0 {
		t.Fatalf("publish: exit %d: %s", code, errOut)
	}
	var sum map[string]any
	if err := json.Unmarshal([]byte(out), &sum); err != nil || sum["repo"] != "github.com/acme/store" || sum["ref"] != "main" || sum["files_added"] != float64(2) {
		t.Fatalf("publish --json: %s (%v)", out, err)
	}
	code, out, errOut = runCLI(t, r.Dir, "search", "--remote", "--json", "--lang", "go", "open the repository at a path")
	if code != 0 {
		t.Fatalf("search --remote: exit %d: %s", code, errOut)
	}
	var hit map[string]any
	if err := json.Unmarshal([]byte(strings.Split(out, "\n")[0]), &hit); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"path", "start_line", "end_line", "name", "kind", "language", "score", "ref", "commit", "blob", "snippet", "breadcrumb", "chunk_id", "repo"} {
		if _, ok := hit[f]; !ok {
			t.Errorf("remote JSON hit lacks %q: %s", f, out)
		}
	}
	if hit["name"] != "OpenRepository" || hit["repo"] != "github.com/acme/store" || hit["path"] != "store/repo.go" {
		t.Errorf("top remote hit: %v", hit)
	}
	// --offset pages the remote hits as the local ones.
	if lines := strings.Split(strings.TrimSpace(out), "\n"); len(lines) > 1 {
		_, page, _ := runCLI(t, r.Dir, "search", "--remote", "--json", "--lang", "go", "--offset", "1", "-k1", "open the repository at a path")
		if strings.TrimSpace(page) != lines[1] {
			t.Errorf("search --remote --offset 1 -k1: %s\nwant the second hit: %s", page, lines[1])
		}
	}
	code, out, _ = runCLI(t, r.Dir, "search", "--remote", "OpenRepository")
	if code != 0 || !strings.Contains(out, "github.com/acme/store@main:store/repo.go:3-6") {
		t.Errorf("search --remote text output: exit %d:\n%s", code, out)
	}
	checkMCPRemote(t, r.Dir, srv.URL())
	code, out, _ = runCLI(t, r.Dir, "publish")
	if code != 0 || !strings.Contains(out, "already published") {
		t.Errorf("second publish: exit %d: %s", code, out)
	}

	// bcindex.remote.grpc: publish writes over gRPC; an address where
	// nothing answers is named with the key.
	r.Commit("close", map[string]string{"store/close.go": "package store\n\n// Close releases the repository.\nfunc Close() {}\n"})
	r.Git("config", "bcindex.remote.grpc", strings.TrimPrefix(dead, "http://"))
	if code, _, errOut := runCLI(t, r.Dir, "publish"); code == 0 || !strings.Contains(errOut, "bcindex.remote.grpc") {
		t.Errorf("publish with nothing at bcindex.remote.grpc: exit %d: %s", code, errOut)
	}
	r.Git("config", "bcindex.remote.grpc", srv.Nodes[0].GRPC)
	code, out, errOut = runCLI(t, r.Dir, "publish", "--json")
	if code != 0 || !strings.Contains(out, `"files_added":1`) {
		t.Errorf("publish over gRPC: exit %d: %s %s", code, out, errOut)
	}
	if code, out, _ := runCLI(t, r.Dir, "search", "--remote", "Close"); code != 0 || !strings.Contains(out, "store/close.go") {
		t.Errorf("search --remote after a publish over gRPC: exit %d:\n%s", code, out)
	}
}

func TestRepoName(t *testing.T) {
	for in, want := range map[string]string{
		"https://github.com/acme/app.git":   "github.com/acme/app",
		"git@github.com:acme/app.git":       "github.com/acme/app",
		"ssh://git@gitlab.example/a/b/c":    "gitlab.example/a/b/c",
		"https://user@host.example/x/y.git": "host.example/x/y",
		"/srv/git/app.git":                  "app",
	} {
		if got := repoName(in); got != want {
			t.Errorf("repoName(%q) = %q, want %q", in, got, want)
		}
	}
}

// callMCPRemote calls the MCP search_remote tool, wired to the cluster as
// `git bcindex mcp` wires it, over an in-process transport, and returns
// its text and its structured answer.
func callMCPRemote(t *testing.T, dir, url string, args map[string]any) (string, []byte) {
	t.Helper()
	repo, err := gitindex.OpenRepo(dir)
	if err != nil {
		t.Fatal(err)
	}
	srv := mcp.NewServer(repo, mcp.Options{Embedder: embed.Default(), Remote: remoteSearcher(url, embed.Default()),
		Ensure: indexer.Ensurer(indexer.Options{Embedder: embed.Default()}), Split: mcpChunks})
	ctx := context.Background()
	st, ct := sdk.NewInMemoryTransports()
	ss, err := srv.SDK().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cs.Close(); ss.Wait() }()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "search_remote", Arguments: args})
	if err != nil || res.IsError {
		t.Fatalf("search_remote: %v %+v", err, res)
	}
	b, _ := json.Marshal(res.StructuredContent)
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	return text.String(), b
}

// checkMCPRemote checks the MCP search_remote tool's hits.
func checkMCPRemote(t *testing.T, dir, url string) {
	t.Helper()
	_, b := callMCPRemote(t, dir, url, map[string]any{"query": "open the repository at a path", "lang": "go", "k": 3})
	var got struct {
		Hits []struct {
			Repo, Path, Name, Snippet string
		} `json:"hits"`
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Hits) == 0 || got.Hits[0].Repo != "github.com/acme/store" || got.Hits[0].Name != "OpenRepository" ||
		got.Hits[0].Path != "store/repo.go" || !strings.Contains(got.Hits[0].Snippet, "func OpenRepository") {
		t.Errorf("search_remote hits: %s", b)
	}
}
