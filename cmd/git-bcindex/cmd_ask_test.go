package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/internal/testkit/chattest"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/llm"
)

// `git bcindex ask` end to end against chattest's stand-in for a
// chat-completions service (the documented wire format; the model's turns
// are scripted, since no model runs here).
func TestAskCommand(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", map[string]string{"store/repo.go": sample})
	code, _, errOut := runCLI(t, r.Dir, "ask", "what opens repositories?")
	if code != exitError || !strings.Contains(errOut, "bcindex.enhance.url: is not set") || !strings.Contains(errOut, "hint: ") {
		t.Fatalf("unconfigured: exit %d\n%s", code, errOut)
	}
	script := func() *chattest.Server {
		return chattest.New(t,
			chattest.Calls(chattest.Call("1", "search", `{"query":"open repository"}`)),
			chattest.Text("`OpenRepository` opens it (store/repo.go:3-6), not store/repo.go:40-41."))
	}
	s := script()
	r.Git("config", "bcindex.enhance.url", s.URL)
	r.Git("config", "bcindex.enhance.model", "scripted")
	code, out, errOut := runCLI(t, r.Dir, "ask", "--ref", "main", "what opens repositories?")
	head := r.Git("rev-parse", "HEAD")
	if code != 0 || !strings.Contains(out, "Citations:\n  store/repo.go:3-6@"+head[:12]) || !strings.Contains(out, "note: citation store/repo.go:40-41 removed") {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, out, errOut)
	}
	s = script()
	r.Git("config", "bcindex.enhance.url", s.URL)
	code, out, errOut = runCLI(t, r.Dir, "ask", "--json", "what opens repositories?")
	var res struct {
		Commit    string
		Citations []struct{ Path string }
		Dropped   []struct{ Dropped string }
		Messages  []llm.Message
	}
	if err := json.Unmarshal([]byte(out), &res); code != 0 || err != nil {
		t.Fatalf("exit %d, %v\n%s\n%s", code, err, out, errOut)
	}
	if res.Commit != head || len(res.Citations) != 1 || len(res.Dropped) != 1 || len(res.Messages) != 5 {
		t.Errorf("transcript %+v", res)
	}
	code, _, errOut = runCLI(t, r.Dir, "ask", "--max-turns", "0", "q")
	if code != exitError || !strings.Contains(errOut, "must be positive") {
		t.Errorf("exit %d: %s", code, errOut)
	}
}
