package mcp

import (
	"context"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bcindex/bcindex/embed"
)

func TestInitializeAndListTools(t *testing.T) {
	f := newFixture(t)
	c := connect(t, f.repo)
	init := c.cs.InitializeResult()
	if init.ServerInfo.Name != "bcindex" || !strings.Contains(init.Instructions, "search") {
		t.Errorf("initialize: server %+v, instructions %q", init.ServerInfo, init.Instructions)
	}
	res, err := c.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		if tool.Annotations == nil || !tool.Annotations.ReadOnlyHint {
			t.Errorf("%s: not annotated read-only", tool.Name)
		}
		if tool.InputSchema == nil || tool.OutputSchema == nil {
			t.Errorf("%s: missing input or output schema", tool.Name)
		}
	}
	slices.Sort(names)
	want := []string{"file_chunks", "get_chunk", "grep", "history", "index_status", "list_directory", "read_file", "search"}
	if !slices.Equal(names, want) {
		t.Errorf("tools = %v, want %v", names, want)
	}
}

func TestSearchAtRevisions(t *testing.T) {
	f := newFixture(t)
	c := connect(t, f.repo)
	tests := []struct {
		rev, query, wantName, wantAbsent string
	}{
		{"", "RetryWithBackoff", "RetryWithBackoff", ""},
		{"HEAD", "retry with backoff", "RetryWithBackoff", ""},
		{"v1", "Retry", "Retry", "RetryWithBackoff"},
		{f.v1[:10], "parse config file", "parse_config_file", ""},
	}
	for _, tt := range tests {
		t.Run(tt.rev+"/"+tt.query, func(t *testing.T) {
			out, txt := ok[searchOut](t, c, "search", map[string]any{"query": tt.query, "rev": tt.rev, "k": 5, "verbose": true})
			var found bool
			for _, h := range out.Hits {
				found = found || h.Name == tt.wantName
				if tt.wantAbsent != "" && h.Name == tt.wantAbsent {
					t.Errorf("hit %s should not exist at %s", h.Name, tt.rev)
				}
				if h.ChunkID == "" || h.Blob == "" || h.Commit != out.Commit || h.Snippet == "" || len(h.Breadcrumb) == 0 {
					t.Errorf("hit without provenance or snippet: %+v", h)
				}
			}
			if !found {
				t.Errorf("no hit named %s in:\n%s", tt.wantName, txt)
			}
		})
	}
	// The older revision really is another commit.
	old, _ := ok[searchOut](t, c, "search", map[string]any{"query": "Retry", "rev": "v1"})
	if old.Commit != f.v1 {
		t.Errorf("commit at v1 = %s, want %s", old.Commit, f.v1)
	}
}

func TestSearchProgressAndIndexStatus(t *testing.T) {
	f := newFixture(t)
	c := connect(t, f.repo)
	before, _ := ok[indexStatusOut](t, c, "index_status", nil)
	if before.Status.Pending == 0 || !strings.Contains(before.State, "not indexed") {
		t.Errorf("before indexing: %+v %+v", before.State, before.Status)
	}
	params := &sdk.CallToolParams{Name: "search", Arguments: map[string]any{"query": "ConfigLoader"}}
	params.SetProgressToken("tok-1")
	res, err := c.cs.CallTool(context.Background(), params)
	if err != nil || res.IsError {
		t.Fatalf("search: %v %s", err, resultText(res))
	}
	c.mu.Lock()
	got := c.progress
	c.mu.Unlock()
	if len(got) == 0 {
		t.Fatal("no progress notifications for a search that indexed")
	}
	for i, p := range got {
		if p.ProgressToken != "tok-1" || (i > 0 && p.Progress <= got[i-1].Progress) {
			t.Errorf("progress %d: %+v", i, p)
		}
	}
	after, _ := ok[indexStatusOut](t, c, "index_status", map[string]any{"rev": "HEAD"})
	if after.Status.Pending != 0 || after.Status.Chunks == 0 || after.State != "up to date" {
		t.Errorf("after indexing: %s %+v", after.State, after.Status)
	}
}

func TestReadFile(t *testing.T) {
	f := newFixture(t)
	c := connect(t, f.repo)
	tests := []struct {
		name      string
		args      map[string]any
		want      []string // substrings of the text
		truncated bool
	}{
		{"head", map[string]any{"path": "net/retry.go"}, []string{"     7\tfunc RetryWithBackoff("}, false},
		{"older rev", map[string]any{"path": "net/retry.go", "rev": "v1"}, []string{"     6\tfunc Retry("}, false},
		{"range", map[string]any{"path": "net/retry.go", "start_line": 7, "end_line": 8}, []string{"     7\tfunc", "     8\t\tdelay"}, false},
		{"dot slash", map[string]any{"path": "./py/config.py", "end_line": 4}, []string{"class ConfigLoader"}, false},
		{"end past eof", map[string]any{"path": "README.md", "start_line": 2, "end_line": 99}, []string{"     3\tA demo"}, false},
		{"default window", map[string]any{"path": "docs/long.txt"}, []string{"   500\tline 500 ", "continue with start_line=501"}, true},
		{"byte budget", map[string]any{"path": "docs/long.txt", "start_line": 10, "end_line": 20, "max_bytes": 100}, []string{"continue with start_line=13", "max_bytes"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, txt := ok[readFileOut](t, c, "read_file", tt.args)
			for _, w := range tt.want {
				if !strings.Contains(txt, w) {
					t.Errorf("text lacks %q:\n%s", w, clip(txt, 2000))
				}
			}
			if out.Truncated != tt.truncated {
				t.Errorf("truncated = %v, want %v (note %q)", out.Truncated, tt.truncated, out.Note)
			}
		})
	}
	old, _ := ok[readFileOut](t, c, "read_file", map[string]any{"path": "net/retry.go", "rev": "v1"})
	cur, _ := ok[readFileOut](t, c, "read_file", map[string]any{"path": "net/retry.go"})
	if old.Blob == cur.Blob || old.TotalLines == cur.TotalLines {
		t.Errorf("v1 and HEAD should differ: %s/%d vs %s/%d", old.Blob, old.TotalLines, cur.Blob, cur.TotalLines)
	}
}

func TestListDirectory(t *testing.T) {
	f := newFixture(t)
	c := connect(t, f.repo)
	tests := []struct {
		name string
		args map[string]any
		want []string // "path type language" of entries, in order, or a prefix of them
		more bool
	}{
		{"root", nil, []string{"README.md file markdown", "data.bin file binary", "docs dir ", "escape symlink ", "etc symlink ", "net dir ", "py dir ", "readme-link symlink ", "scripts dir "}, false},
		{"sub", map[string]any{"path": "net"}, []string{"net/loop.go file go", "net/retry.go file go"}, false},
		{"older rev", map[string]any{"rev": "v1"}, []string{"README.md file markdown", "net dir ", "py dir ", "scripts dir "}, false},
		{"recursive", map[string]any{"recursive": true, "path": "scripts/"}, []string{"scripts/deploy file python"}, false},
		{"depth 2 paged", map[string]any{"depth": 2, "limit": 3, "offset": 2}, []string{"docs dir ", "docs/long.txt file text", "escape symlink "}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, txt := ok[listDirOut](t, c, "list_directory", tt.args)
			var got []string
			for _, e := range out.Entries {
				got = append(got, e.Path+" "+e.Type+" "+e.Language)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("entries = %q, want %q\n%s", got, tt.want, txt)
			}
			if out.Truncated != tt.more || (tt.more && !strings.Contains(out.Note, "offset=")) {
				t.Errorf("truncated = %v note %q, want %v", out.Truncated, out.Note, tt.more)
			}
		})
	}
	out, _ := ok[listDirOut](t, c, "list_directory", nil)
	for _, e := range out.Entries {
		switch e.Path {
		case "escape":
			if e.Target != "/" {
				t.Errorf("escape target = %q", e.Target)
			}
		case "README.md":
			if e.Size != int64(len("# Demo\n\nA demo repository.\n")) {
				t.Errorf("README size = %d", e.Size)
			}
		case "docs":
			if e.Files != 1 {
				t.Errorf("docs files = %d", e.Files)
			}
		}
	}
}

func TestChunks(t *testing.T) {
	f := newFixture(t)
	c := connect(t, f.repo)
	// Outline works before anything is indexed (chunked on the fly) and
	// after (read from the index), with the same chunk IDs.
	before, txt := ok[fileChunksOut](t, c, "file_chunks", map[string]any{"path": "py/config.py"})
	if before.Indexed || !strings.Contains(txt, "class ConfigLoader") || !strings.Contains(txt, "  7-10 method parse_config_file") {
		t.Errorf("outline before indexing (indexed=%v):\n%s", before.Indexed, txt)
	}
	hits, _ := ok[searchOut](t, c, "search", map[string]any{"query": "parse_config_file", "mode": "symbol", "k": 1})
	if len(hits.Hits) != 1 || hits.Hits[0].Name != "parse_config_file" {
		t.Fatalf("search hits: %+v", hits.Hits)
	}
	after, _ := ok[fileChunksOut](t, c, "file_chunks", map[string]any{"path": "py/config.py"})
	if !after.Indexed || len(after.Chunks) != len(before.Chunks) {
		t.Errorf("after indexing: indexed=%v, %d chunks, before %d", after.Indexed, len(after.Chunks), len(before.Chunks))
	}
	var ids []string
	for i := range after.Chunks {
		if after.Chunks[i].ChunkID != before.Chunks[i].ChunkID {
			t.Errorf("chunk %d: id %s from the index, %s on the fly", i, after.Chunks[i].ChunkID, before.Chunks[i].ChunkID)
		}
		ids = append(ids, after.Chunks[i].ChunkID)
	}
	if !slices.Contains(ids, hits.Hits[0].ChunkID) {
		t.Errorf("search chunk_id %s not in the outline %v", hits.Hits[0].ChunkID, ids)
	}

	got, txt := ok[getChunkOut](t, c, "get_chunk", map[string]any{"chunk_id": hits.Hits[0].ChunkID})
	if !strings.Contains(got.Text, "return json.load(f)") || got.Parent == nil || got.Parent.Name != "ConfigLoader" {
		t.Errorf("get_chunk:\n%s", txt)
	}
	if len(got.Siblings) == 0 || got.Siblings[0].Name != "reload" || !slices.Equal(got.Paths, []string{"py/config.py"}) {
		t.Errorf("siblings %+v paths %v", got.Siblings, got.Paths)
	}
	if want := []string{"py/config.py", "ConfigLoader", "parse_config_file"}; !slices.Equal(got.Breadcrumb, want) {
		t.Errorf("breadcrumb %v, want %v", got.Breadcrumb, want)
	}
	withParent, _ := ok[getChunkOut](t, c, "get_chunk", map[string]any{"chunk_id": hits.Hits[0].ChunkID, "parent_text": true})
	if !strings.Contains(withParent.Parent.Text, "class ConfigLoader:") {
		t.Errorf("parent text: %q", withParent.Parent.Text)
	}
	short, _ := ok[getChunkOut](t, c, "get_chunk", map[string]any{"chunk_id": hits.Hits[0].ChunkID, "max_bytes": 60})
	if !short.Truncated || !strings.Contains(short.Note, "read_file") {
		t.Errorf("truncated chunk: %+v", short)
	}

	// A micro chunk comes with its parent's text. (Only when the chunker
	// emits blocks for this function.)
	loop, _ := ok[fileChunksOut](t, c, "file_chunks", map[string]any{"path": "net/loop.go"})
	for _, ch := range loop.Chunks {
		if ch.Kind != "block" {
			continue
		}
		b, _ := ok[getChunkOut](t, c, "get_chunk", map[string]any{"chunk_id": ch.ChunkID})
		if b.Parent == nil || b.Parent.Name != "Sum" || !strings.Contains(b.Parent.Text, "func Sum(") || !strings.Contains(b.Text, "for _, x := range xs") {
			t.Errorf("micro chunk %s: %+v", ch.Name, b)
		}
	}

	// A chunk of the older revision: its blob is not at HEAD.
	first, _ := ok[fileChunksOut](t, c, "file_chunks", map[string]any{"path": "net/retry.go", "rev": "v1", "limit": 1})
	if !first.Truncated || len(first.Chunks) != 1 || !strings.Contains(first.Note, "offset=1") {
		t.Fatalf("v1 outline, first page: %+v", first)
	}
	rest, _ := ok[fileChunksOut](t, c, "file_chunks", map[string]any{"path": "net/retry.go", "rev": "v1", "offset": 1})
	if rest.Truncated || len(rest.Chunks) != 1 || rest.Chunks[0].Name != "Retry" {
		t.Fatalf("v1 outline, second page: %+v", rest)
	}
	res := c.call(t, "get_chunk", map[string]any{"chunk_id": rest.Chunks[0].ChunkID})
	if !res.IsError || !strings.Contains(resultText(res), "pass the rev") {
		t.Errorf("v1 chunk asked at HEAD: %s", resultText(res))
	}
	old, _ := ok[getChunkOut](t, c, "get_chunk", map[string]any{"chunk_id": rest.Chunks[0].ChunkID, "rev": "v1"})
	if old.Name != "Retry" || !strings.Contains(old.Text, "func Retry(") {
		t.Errorf("v1 chunk: %+v", old)
	}
}

// TestServeAnswersAfterInputEnds: every request read before the input
// ended is answered, the last one too when its line has no newline.
func TestServeAnswersAfterInputEnds(t *testing.T) {
	f := newFixture(t)
	srv := NewServer(f.repo, withIndexer(Options{Embedder: embed.Default(), Version: "v9.8.7"}))
	in := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"pipe","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search","arguments":{"query":"retry with backoff"}}}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"net/retry.go"}}}`
	var out strings.Builder
	if err := srv.Serve(context.Background(), io.NopCloser(strings.NewReader(in)), &out); err != nil {
		t.Fatal(err)
	}
	answered := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var m struct {
			ID     json.RawMessage
			Result json.RawMessage
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		if m.Result != nil {
			answered[string(m.ID)] = true
		}
	}
	if len(answered) != 3 || !strings.Contains(out.String(), `"version":"v9.8.7"`) {
		t.Fatalf("answered %v of ids 1, 2, 3:\n%s", answered, out.String())
	}
}
