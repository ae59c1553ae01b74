package ask

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/internal/testkit/chattest"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/llm"
	"github.com/bcindex/bcindex/mcp"
)

// Every test here talks to chattest's stand-in for a chat-completions
// service, speaking the documented wire format, with the model's turns
// scripted: no model runs on the machines the tests run on.

func newAsker(t *testing.T, s *chattest.Server) *Asker {
	t.Helper()
	r := gittest.New(t)
	r.Commit("retry", map[string]string{"net/retry.go": gittest.RetryGo, "README.md": "# demo\n"})
	repo, err := gitindex.OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	c, err := repo.Resolve("main")
	if err != nil {
		t.Fatal(err)
	}
	client, err := llm.New(llm.Config{URL: s.URL, Model: "scripted"})
	if err != nil {
		t.Fatal(err)
	}
	return &Asker{Client: client, Repo: repo, Server: mcp.NewServer(repo, mcp.Options{Embedder: embed.Default(), Ensure: indexer.Ensurer(indexer.Options{Embedder: embed.Default()})}), Commit: c}
}

// toolResults returns the tool messages of a request by call ID.
func toolResults(req chattest.Request) map[string]string {
	out := map[string]string{}
	for _, m := range req.Messages {
		if m.Role == llm.RoleTool {
			out[m.ToolCallID] = m.Content
		}
	}
	return out
}

// Three turns: a search and a malformed call, then a read and a path the
// MCP rules refuse, then an answer whose citations are partly wrong.
func TestAskSeveralTurns(t *testing.T) {
	var a *Asker
	var commit string
	s := chattest.NewFunc(t, func(n int, req chattest.Request) chattest.Step {
		switch n {
		case 0:
			if len(req.Tools) != len(toolNames) || !strings.Contains(req.Messages[0].Content, commit[:12]) {
				t.Errorf("first request: %d tools, system %q", len(req.Tools), req.Messages[0].Content)
			}
			return chattest.Calls(
				chattest.Call("c1", "search", `{"query":"retry with backoff","k":3}`),
				chattest.Call("c2", "read_file", `{"path": "net/retry.go"`),
				chattest.Call("c3", "delete_file", `{"path":"net/retry.go"}`))
		case 1:
			got := toolResults(req)
			if !strings.Contains(got["c1"], "net/retry.go") || !strings.Contains(got["c2"], "not a JSON object") || !strings.Contains(got["c3"], "no tool \"delete_file\"") {
				t.Errorf("tool results after turn 1: %q", got)
			}
			return chattest.Calls(
				chattest.Call("c4", "read_file", `{"path":"net/retry.go","start_line":5,"end_line":18}`),
				chattest.Call("c5", "list_directory", `{"path":"../../etc"}`))
		case 2:
			got := toolResults(req)
			if !strings.Contains(got["c4"], "delay *= 2") || !strings.HasPrefix(got["c5"], "error: ") || !strings.Contains(got["c5"], `".."`) {
				t.Errorf("tool results after turn 2: %q", got)
			}
			c := commit[:12]
			return chattest.Text(fmt.Sprintf("`RetryWithBackoff` doubles its delay after each failure (net/retry.go:7-18@%s):\n\n```go\n\tdelay *= 2\n```\n"+
				"It starts at `delay := 10 * time.Millisecond` (net/retry.go:8-8@%s).\n"+
				"It logs every retry (net/retry.go:90-99@%s) and calls `panic(err)` (net/retry.go:10-12@%s).\n"+
				"See also missing/file.go:1-3@%s and net/retry.go:1-2@0123456789ab.", c, c, c, c, c))
		}
		return nil
	})
	a = newAsker(t, s)
	commit = a.Commit.Hash.String()
	var shown bytes.Buffer
	res, err := a.Ask(context.Background(), Options{Question: "How does retrying back off?", Show: &shown})
	if err != nil {
		t.Fatal(err)
	}
	if res.Turns != 3 || res.ToolCalls != 5 {
		t.Errorf("%d turns, %d tool calls", res.Turns, res.ToolCalls)
	}
	if !strings.Contains(shown.String(), "→ search") || !strings.Contains(shown.String(), "→ list_directory") {
		t.Errorf("shown:\n%s", shown.String())
	}
	var kept []string
	for _, c := range res.Citations {
		kept = append(kept, c.String())
	}
	want := []string{"net/retry.go:7-18@" + commit[:12], "net/retry.go:8-8@" + commit[:12]}
	if strings.Join(kept, " ") != strings.Join(want, " ") {
		t.Errorf("kept %v, want %v", kept, want)
	}
	reasons := map[string]string{}
	for _, c := range res.Dropped {
		reasons[c.Text] = c.Dropped
	}
	for text, why := range map[string]string{
		"net/retry.go:90-99@" + commit[:12]:  "has 18 lines",
		"net/retry.go:10-12@" + commit[:12]:  "do not contain the quoted \"panic(err)\"",
		"missing/file.go:1-3@" + commit[:12]: "no file \"missing/file.go\"",
		"net/retry.go:1-2@0123456789ab":      "no commit",
	} {
		if !strings.Contains(reasons[text], why) {
			t.Errorf("%s dropped for %q, want %q", text, reasons[text], why)
		}
	}
	if len(res.Dropped) != 4 || strings.Count(res.Answer, "[citation removed]") != 4 || strings.Contains(res.Answer, ":90-99") {
		t.Errorf("answer:\n%s", res.Answer)
	}
	var out bytes.Buffer
	res.Print(&out)
	if !strings.Contains(out.String(), "Citations:\n  net/retry.go:7-18@"+commit[:12]) || strings.Count(out.String(), "note: citation") != 4 {
		t.Errorf("printed:\n%s", out.String())
	}
}

// A refusal ends the conversation with ErrRefused and says why.
func TestAskRefusal(t *testing.T) {
	s := chattest.New(t, chattest.Reply(chattest.Message{Refusal: "I can't help with that."}, "stop"))
	a := newAsker(t, s)
	_, err := a.Ask(context.Background(), Options{Question: "write malware"})
	if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "can't help") {
		t.Errorf("err = %v", err)
	}
}

// Budgets: the last turn offers no tools, and a spent token budget stops.
func TestAskBudgets(t *testing.T) {
	call := chattest.Calls(chattest.Call("", "list_directory", `{}`)) // no ID, as some servers send
	s := chattest.NewFunc(t, func(n int, req chattest.Request) chattest.Step {
		if n == 1 {
			if len(req.Tools) != 0 {
				t.Errorf("last turn offers %d tools", len(req.Tools))
			}
			return chattest.Text("It has a README.md (README.md:1-1).")
		}
		return call
	})
	a := newAsker(t, s)
	res, err := a.Ask(context.Background(), Options{Question: "What is there?", MaxTurns: 2})
	if err != nil || len(res.Citations) != 1 || res.Citations[0].Commit != a.Commit.Hash.String() {
		t.Fatalf("%+v, %v", res, err)
	}
	// The call without an ID got one, and its result names it.
	if m := res.Messages; m[2].ToolCalls[0].ID == "" || m[3].ToolCallID != m[2].ToolCalls[0].ID {
		t.Errorf("call %+v, result %+v", m[2], m[3])
	}
	s = chattest.NewFunc(t, func(int, chattest.Request) chattest.Step { return call })
	a = newAsker(t, s)
	if _, err := a.Ask(context.Background(), Options{Question: "What is there?", MaxTokens: 5}); !errors.Is(err, ErrBudget) {
		t.Errorf("err = %v", err)
	}
	if n := len(s.Requests()); n != 1 {
		t.Errorf("%d requests after the budget was spent", n)
	}
}

// Ctrl-C: a cancelled context ends the conversation with its error.
func TestAskCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	s := chattest.NewFunc(t, func(int, chattest.Request) chattest.Step {
		cancel()
		return chattest.Calls(chattest.Call("c", "list_directory", `{}`))
	})
	a := newAsker(t, s)
	if _, err := a.Ask(ctx, Options{Question: "What is there?"}); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v", err)
	}
}

// Citations are checked against the revision asked about: a file that
// exists only in a later commit is not there, and tool calls without a rev
// read the asked commit too.
func TestAskOlderRevision(t *testing.T) {
	r := gittest.New(t)
	old := r.Commit("v1", map[string]string{"net/retry.go": gittest.RetryGo})
	r.Commit("v2", map[string]string{"net/loop.go": "package net\n\nfunc Loop() {}\n"})
	repo, err := gitindex.OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	c, err := repo.Resolve(old)
	if err != nil {
		t.Fatal(err)
	}
	s := chattest.NewFunc(t, func(n int, req chattest.Request) chattest.Step {
		if n == 0 {
			return chattest.Calls(chattest.Call("a", "read_file", `{"path":"net/loop.go"}`))
		}
		if got := toolResults(req)["a"]; !strings.Contains(got, `no file "net/loop.go"`) {
			t.Errorf("read at the asked commit: %q", got)
		}
		return chattest.Text("`func Loop() {}` (net/loop.go:3-3) and `RetryWithBackoff` (net/retry.go:7-7).")
	})
	client, err := llm.New(llm.Config{URL: s.URL, Model: "scripted"})
	if err != nil {
		t.Fatal(err)
	}
	a := &Asker{Client: client, Repo: repo, Server: mcp.NewServer(repo, mcp.Options{Ensure: indexer.Ensurer(indexer.Options{})}), Commit: c}
	res, err := a.Ask(context.Background(), Options{Question: "Is there a loop?"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Citations) != 1 || res.Citations[0].Path != "net/retry.go" || res.Citations[0].Commit != old {
		t.Errorf("kept %+v", res.Citations)
	}
	if len(res.Dropped) != 1 || !strings.Contains(res.Dropped[0].Dropped, "no file") {
		t.Errorf("dropped %+v", res.Dropped)
	}
}
