package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gc"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/store"
	"github.com/bcindex/bcindex/store/storewrite"
)

// keptServer serves a one-commit repository with the indexer the command
// gives a server.
func keptServer(t *testing.T) (*gittest.Repo, *gitindex.Repo, *Server, *client) {
	t.Helper()
	r := gittest.New(t)
	r.Commit("one", map[string]string{"net/retry.go": gittest.RetryGo, "py/config.py": configPy})
	repo, err := gitindex.OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	srv := NewServer(repo, withIndexer(Options{Embedder: embed.Default(), Version: "test"}))
	t.Cleanup(srv.Close)
	return r, repo, srv, connectServer(t, srv)
}

func hitPaths(out searchOut) string {
	var ps []string
	for _, h := range out.Hits {
		ps = append(ps, h.Path)
	}
	for _, m := range out.More {
		ps = append(ps, m.Path)
	}
	return strings.Join(ps, " ")
}

func TestServerKeepsViewAcrossCalls(t *testing.T) {
	r, repo, srv, c := keptServer(t)
	first, _ := ok[searchOut](t, c, "search", map[string]any{"query": "retry with backoff"})
	if first.NewBlobs == 0 || !strings.Contains(hitPaths(first), "net/retry.go") {
		t.Fatalf("first search: indexed %d blobs, hits %q", first.NewBlobs, hitPaths(first))
	}
	second, _ := ok[searchOut](t, c, "search", map[string]any{"query": "parse config file"})
	if !strings.Contains(hitPaths(second), "py/config.py") {
		t.Fatalf("second search: hits %q", hitPaths(second))
	}
	if n := srv.views.Opens(); n != 1 {
		t.Fatalf("two searches of an unchanged index opened %d views, want 1", n)
	}
	// grep reads no vectors: it keeps a view of its own, once.
	for i := 0; i < 2; i++ {
		g, _ := ok[grepOut](t, c, "grep", map[string]any{"pattern": "attempts", "fixed": true})
		if len(g.Matches) == 0 {
			t.Fatal("grep found nothing")
		}
	}
	if n := srv.views.Opens(); n != 2 {
		t.Fatalf("after two greps: %d views opened, want 2 (one per kind of read)", n)
	}

	// A new commit: the next call indexes it and reads it.
	r.Commit("two", map[string]string{"cache/frobnicate.go": "package cache\n\n// Frobnicate warms the cache.\nfunc Frobnicate() int { return 42 }\n"})
	third, _ := ok[searchOut](t, c, "search", map[string]any{"query": "Frobnicate"})
	if third.NewBlobs == 0 || !strings.Contains(hitPaths(third), "cache/frobnicate.go") {
		t.Fatalf("search after a commit: indexed %d blobs, hits %q", third.NewBlobs, hitPaths(third))
	}
	g, _ := ok[grepOut](t, c, "grep", map[string]any{"pattern": "Frobnicate", "fixed": true})
	if len(g.Matches) == 0 || g.Matches[0].Path != "cache/frobnicate.go" {
		t.Fatalf("grep after a commit: %+v", g.Matches)
	}
	if n := srv.views.Opens(); n != 4 {
		t.Fatalf("after the commit: %d views opened, want 4", n)
	}

	// The same revision, but another run replaced the manifest (here: a
	// branch indexed from outside the server): the view opens again.
	r.Git("checkout", "-q", "-b", "side")
	r.Commit("side", map[string]string{"side.go": "package side\n\nfunc Side() {}\n"})
	r.Git("checkout", "-q", "-")
	side, err := repo.Resolve("side")
	if err != nil {
		t.Fatal(err)
	}
	v, _, err := indexer.Ensure(context.Background(), repo, indexer.Options{}, indexer.Request{
		Want: store.Want{Commits: []gitindex.Commit{side}}, Parts: indexer.Exact})
	if err != nil {
		t.Fatal(err)
	}
	v.Close()
	again, _ := ok[searchOut](t, c, "search", map[string]any{"query": "Frobnicate"})
	if again.NewBlobs != 0 || !strings.Contains(hitPaths(again), "cache/frobnicate.go") {
		t.Fatalf("search after another run: indexed %d blobs, hits %q", again.NewBlobs, hitPaths(again))
	}
	if n := srv.views.Opens(); n != 5 {
		t.Fatalf("after another run replaced the manifest: %d views opened, want 5", n)
	}
	ok[searchOut](t, c, "search", map[string]any{"query": "Frobnicate"})
	if n := srv.views.Opens(); n != 5 {
		t.Fatalf("an unchanged index opened again: %d views, want 5", n)
	}

	// gc drops the branch's blob and rewrites the segments.
	r.Git("branch", "-q", "-D", "side")
	emb := embed.Default()
	if _, err := gc.GC(context.Background(), indexer.NewIndexer(repo, indexer.Options{Embedder: emb}), 0, gc.Options{}); err != nil {
		t.Fatal(err)
	}
	afterGC, _ := ok[searchOut](t, c, "search", map[string]any{"query": "Frobnicate"})
	if !strings.Contains(hitPaths(afterGC), "cache/frobnicate.go") {
		t.Fatalf("search after gc: hits %q", hitPaths(afterGC))
	}
	if n := srv.views.Opens(); n != 6 {
		t.Fatalf("after gc: %d views opened, want 6", n)
	}

	// A rebuild from outside: the index removed and built again, with
	// the same segment names.
	if err := storewrite.RemoveIndexData(repo.IndexDir); err != nil {
		t.Fatal(err)
	}
	if _, err := indexer.NewIndexer(repo, indexer.Options{Embedder: emb}).Index(context.Background(), []string{"HEAD"}, 0); err != nil {
		t.Fatal(err)
	}
	rebuilt, _ := ok[searchOut](t, c, "search", map[string]any{"query": "Frobnicate"})
	if rebuilt.NewBlobs != 0 || !strings.Contains(hitPaths(rebuilt), "cache/frobnicate.go") {
		t.Fatalf("search after a rebuild: indexed %d blobs, hits %q", rebuilt.NewBlobs, hitPaths(rebuilt))
	}
	if n := srv.views.Opens(); n != 7 {
		t.Fatalf("after a rebuild: %d views opened, want 7", n)
	}
}

func TestServerConcurrentCalls(t *testing.T) {
	_, _, srv, c := keptServer(t)
	ok[searchOut](t, c, "search", map[string]any{"query": "retry"})
	var wg sync.WaitGroup
	errs := make(chan string, 16)
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			name, args := "search", map[string]any{"query": "parse config file"}
			if i%2 == 1 {
				name, args = "grep", map[string]any{"pattern": "attempts", "fixed": true}
			}
			res, err := c.cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
			switch {
			case err != nil:
				errs <- name + ": " + err.Error()
			case res.IsError:
				errs <- name + ": " + resultText(res)
			case name == "search" && !strings.Contains(resultText(res), "py/config.py"):
				errs <- name + ": no py/config.py in " + resultText(res)
			case name == "grep" && !strings.Contains(resultText(res), "net/retry.go"):
				errs <- name + ": no net/retry.go in " + resultText(res)
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	// Calls that overlapped opened views of their own; one of each kind
	// is kept, and serves the next calls.
	n := srv.views.Opens()
	if n < 2 {
		t.Fatalf("a search and a grep opened %d views", n)
	}
	s, _ := ok[searchOut](t, c, "search", map[string]any{"query": "parse config file"})
	g, _ := ok[grepOut](t, c, "grep", map[string]any{"pattern": "attempts", "fixed": true})
	if !strings.Contains(hitPaths(s), "py/config.py") || len(g.Matches) == 0 {
		t.Fatalf("after concurrent calls: search hits %q, %d grep matches", hitPaths(s), len(g.Matches))
	}
	if m := srv.views.Opens(); m != n {
		t.Fatalf("calls after concurrent ones opened %d views, want the kept ones", m-n)
	}
}

// TestServerKeepsViewAcrossTools: the tools that read what is indexed
// without indexing (file_chunks, get_chunk, history) share one kept view
// of a revision, and answer as a server that opens the index for the one
// call does.
func TestServerKeepsViewAcrossTools(t *testing.T) {
	r, repo, srv, c := keptServer(t)
	ok[searchOut](t, c, "search", map[string]any{"query": "retry with backoff"})
	before := srv.views.Opens()
	outline, _ := ok[fileChunksOut](t, c, "file_chunks", map[string]any{"path": "net/retry.go"})
	if !outline.Indexed || len(outline.Chunks) < 2 {
		t.Fatalf("file_chunks of an indexed file: indexed %t, %d chunks", outline.Indexed, len(outline.Chunks))
	}
	calls := []struct {
		name string
		args map[string]any
	}{
		{"file_chunks", map[string]any{"path": "net/retry.go"}},
		{"get_chunk", map[string]any{"chunk_id": outline.Chunks[1].ChunkID}},
		{"history", map[string]any{"pattern": "attempts"}},
		{"read_file", map[string]any{"path": "py/config.py"}},
		{"list_directory", map[string]any{"recursive": true}},
		{"file_chunks", map[string]any{"path": "py/config.py"}},
		{"get_chunk", map[string]any{"chunk_id": outline.Chunks[0].ChunkID, "rev": "HEAD"}},
		{"history", map[string]any{"pattern": "def ", "lines": true}},
	}
	for _, call := range calls {
		got := c.call(t, call.name, call.args)
		fresh := NewServer(repo, withIndexer(Options{Embedder: embed.Default(), Version: "test"}))
		want := connectServer(t, fresh).call(t, call.name, call.args)
		fresh.Close()
		if got.IsError || want.IsError {
			t.Fatalf("%s %v: kept server error %t, fresh one %t: %s / %s", call.name, call.args, got.IsError, want.IsError, resultText(got), resultText(want))
		}
		gj, _ := json.Marshal(got.StructuredContent)
		wj, _ := json.Marshal(want.StructuredContent)
		if resultText(got) != resultText(want) || string(gj) != string(wj) {
			t.Errorf("%s %v: the kept view answered\n%s\n%s\nA fresh server:\n%s\n%s", call.name, call.args, resultText(got), gj, resultText(want), wj)
		}
	}
	if n := srv.views.Opens() - before; n != 1 {
		t.Fatalf("%d calls of the chunk tools and history on one revision opened %d views, want 1", len(calls)+1, n)
	}

	// A new commit not indexed yet: the chunk tools chunk its file on the
	// fly, indexing nothing; once a search indexed it, the same call reads
	// the index again and finds it there.
	r.Commit("two", map[string]string{"cache/frobnicate.go": "package cache\n\n// Frobnicate warms the cache.\nfunc Frobnicate() int { return 42 }\n"})
	args := map[string]any{"path": "cache/frobnicate.go"}
	fly, _ := ok[fileChunksOut](t, c, "file_chunks", args)
	if fly.Indexed {
		t.Fatal("file_chunks of a commit not indexed says its file is indexed")
	}
	ok[searchOut](t, c, "search", map[string]any{"query": "Frobnicate"})
	indexed, _ := ok[fileChunksOut](t, c, "file_chunks", args)
	if !indexed.Indexed || indexed.Blob != fly.Blob || len(indexed.Chunks) != len(fly.Chunks) {
		t.Fatalf("file_chunks after the search indexed the commit: indexed %t, blob %s (was %s), %d chunks (were %d)",
			indexed.Indexed, indexed.Blob, fly.Blob, len(indexed.Chunks), len(fly.Chunks))
	}
}
