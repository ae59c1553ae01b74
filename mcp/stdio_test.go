package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/bcindex/bcindex/embed"
)

const (
	initLine        = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"pipe","version":"1"}}}`
	initializedLine = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
)

// reply is one line the server wrote.
type reply struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// serveLines runs the server over the given input lines and returns its
// replies: those with an id by id, those with a null id in order.
func serveLines(t *testing.T, lines []string) (byID map[string]reply, nullID []reply) {
	t.Helper()
	f := newFixture(t)
	srv := NewServer(f.repo, withIndexer(Options{Embedder: embed.Default()}))
	var out strings.Builder
	in := io.NopCloser(strings.NewReader(strings.Join(lines, "\n") + "\n"))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := srv.Serve(ctx, in, &out); err != nil {
		t.Fatalf("serve: %v", err)
	}
	byID = map[string]reply{}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var r reply
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("the server wrote a line that is not JSON: %v: %.200s", err, line)
		}
		if string(r.ID) == "null" {
			nullID = append(nullID, r)
			continue
		}
		if _, dup := byID[string(r.ID)]; dup {
			t.Errorf("two replies to id %s", r.ID)
		}
		byID[string(r.ID)] = r
	}
	return byID, nullID
}

// TestServeReadsOnAfterBadLines: a line that holds no request gets an
// error reply, and the requests before and after it are answered.
func TestServeReadsOnAfterBadLines(t *testing.T) {
	search := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search","arguments":{"query":"retry with backoff"}}}`
	// Deeper than any JSON decoder here takes (encoding/json stops at
	// 10,000 levels): not JSON as far as the server can tell.
	tooDeep := `{"jsonrpc":"2.0","id":90,"method":"ping","params":{"a":` + strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000) + `}}`
	// Deep but decodable, in a tool's arguments: a tool error, not a crash.
	deepArgs := `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"search","arguments":{"query":` +
		strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + `}}}`
	// A request larger than the server reads (maxLine), skipped unread.
	huge := `{"jsonrpc":"2.0","id":91,"method":"tools/call","params":{"name":"search","arguments":{"query":"` +
		strings.Repeat("x", maxLine+1) + `"}}}`
	lines := []string{
		"not json",
		initLine,
		`{"jsonrpc":"2.0","id":92,"method":`, // cut short
		initializedLine,
		search,
		`42`,
		`{"jsonrpc":"1.0","id":8,"method":"ping"}`,
		`[{"jsonrpc":"2.0","id":9,"method":"ping"}]`,
		`{"jsonrpc":"2.0","id":3,"method":"no/such/method"}`,
		tooDeep,
		deepArgs,
		huge,
		"",
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"net/retry.go","end_line":3}}}`,
		`{"jsonrpc":"2.0","id":6,"method":"ping"}`,
	}
	byID, nullID := serveLines(t, lines)

	for _, id := range []string{"1", "2", "5", "6"} {
		r, ok := byID[id]
		if !ok || r.Error != nil || r.Result == nil {
			t.Errorf("request %s: want a result, got %+v", id, r)
		}
	}
	if !strings.Contains(string(byID["2"].Result), "retry.go") {
		t.Errorf("search after bad lines: %s", byID["2"].Result)
	}
	if !strings.Contains(string(byID["5"].Result), "package net") {
		t.Errorf("read_file after bad lines: %s", byID["5"].Result)
	}
	if r := byID["3"]; r.Error == nil || r.Error.Code != -32601 {
		t.Errorf("unknown method: want -32601, got %+v", r)
	}
	if r := byID["8"]; r.Error == nil || r.Error.Code != -32600 || !strings.Contains(r.Error.Message, "version") {
		t.Errorf("wrong version tag: want -32600 with id 8, got %+v", r)
	}
	if r := byID["4"]; r.Error == nil && !strings.Contains(string(r.Result), `"isError":true`) {
		t.Errorf("deeply nested arguments: want an error, got %s", r.Result)
	}
	// In the order of the lines: not json, cut short, 42, the batch, too
	// deep, too large.
	want := []struct {
		code int64
		says string
	}{
		{-32700, "Parse error"}, {-32700, "Parse error"}, {-32600, "Invalid Request"},
		{-32600, "batches are not supported"}, {-32700, "Parse error"}, {-32600, "longer than"},
	}
	if len(nullID) != len(want) {
		t.Fatalf("want %d replies with a null id, got %d: %+v", len(want), len(nullID), nullID)
	}
	for i, w := range want {
		if e := nullID[i].Error; e == nil || e.Code != w.code || !strings.Contains(e.Message, w.says) {
			t.Errorf("null-id reply %d: want %d %q, got %+v", i, w.code, w.says, e)
		}
	}
	for _, id := range []string{"90", "91", "92", "9"} {
		if _, ok := byID[id]; ok {
			t.Errorf("id %s, on a line that could not be read as a request, was answered as one", id)
		}
	}
}

// TestServeBadLineFirst is the one-line trial from a terminal: garbage,
// then a handshake, answered.
func TestServeBadLineFirst(t *testing.T) {
	byID, nullID := serveLines(t, []string{"not json", initLine})
	if len(nullID) != 1 || nullID[0].Error.Code != -32700 {
		t.Errorf("want one parse error, got %+v", nullID)
	}
	if byID["1"].Result == nil {
		t.Errorf("initialize after a bad line was not answered: %+v", byID)
	}
}

// brokenPipe is a stdout whose reader has gone.
type brokenPipe struct{}

func (brokenPipe) Write([]byte) (int, error) { return 0, io.ErrClosedPipe }

// TestServeClosedStdout: when the client closes the server's stdout and
// keeps its stdin open, the server ends, saying so, instead of reading
// requests it cannot answer.
func TestServeClosedStdout(t *testing.T) {
	f := newFixture(t)
	srv := NewServer(f.repo, withIndexer(Options{Embedder: embed.Default()}))
	inR, inW := io.Pipe()
	defer inW.Close()
	done := make(chan error, 1)
	go func() { done <- srv.Serve(context.Background(), inR, brokenPipe{}) }()
	if _, err := io.WriteString(inW, initLine+"\n"); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		t.Logf("serve: %v", err)
		if err == nil || !errors.Is(err, io.ErrClosedPipe) && !strings.Contains(err.Error(), "closed") {
			t.Errorf("want an error about the closed output, got %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the server still runs a minute after its output was closed")
	}
}

// TestStdioErrorCodes: a message with an id and no method, result or error
// is answered -32600 with its id, and a request sent before "initialize" is
// refused with -32600, not with the code 0 JSON-RPC does not define; after
// initialize, the same request is answered.
func TestStdioErrorCodes(t *testing.T) {
	byID, nullID := serveLines(t, []string{
		`{"jsonrpc":"2.0","id":5}`,
		`{"jsonrpc":"2.0","id":6,"method":"tools/list"}`,
		initLine,
		initializedLine,
		`{"jsonrpc":"2.0","id":7,"method":"tools/list"}`,
	})
	if len(nullID) != 0 {
		t.Errorf("replies with a null id: %+v", nullID)
	}
	if r, ok := byID["5"]; !ok || r.Error == nil || r.Error.Code != -32600 {
		t.Errorf("id without method: %+v (present %v), want error -32600", r.Error, ok)
	}
	if r, ok := byID["6"]; !ok || r.Error == nil || r.Error.Code != -32600 || !strings.Contains(r.Error.Message, "initialize") {
		t.Errorf("tools/list before initialize: %+v (present %v), want error -32600 naming initialize", r.Error, ok)
	}
	if r := byID["7"]; r.Error != nil || !strings.Contains(string(r.Result), "search") {
		t.Errorf("tools/list after initialize: error %+v, result %.100s", r.Error, r.Result)
	}
}
