package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/internal/chattest"
	"github.com/bcindex/bcindex/internal/gittest"
	"github.com/bcindex/bcindex/llm"
)

// `git bcindex enhance` end to end against chattest's stand-in for a
// chat-completions service (the documented wire format), whose "model"
// answers one valid summary per chunk id.
func TestEnhanceCommand(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", map[string]string{"store/repo.go": sample})
	s := chattest.NewFunc(t, func(_ int, req llm.Request) chattest.Step {
		if !strings.Contains(req.Messages[1].Content, "### id 1: function OpenRepository in store/repo.go") {
			t.Errorf("prompt:\n%s", req.Messages[1].Content)
		}
		return chattest.Text(`{"chunks":[{"id":1,"summary":"Opens the repository at a path.","keywords":["open","repository","path"],"purpose":"open a repository"}]}`)
	})
	r.Git("config", "bcindex.enhance.url", s.URL)
	r.Git("config", "bcindex.enhance.model", "scripted")
	code, out, errOut := runCLI(t, r.Dir, "enhance", "--dry-run")
	if code != 0 || !strings.Contains(out, "1 chunks (1 definitions, 0 blocks), 0 already summarised by scripted") || !strings.Contains(out, "would summarise 1 chunks") || len(s.Requests()) != 0 {
		t.Fatalf("dry run: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = runCLI(t, r.Dir, "enhance", "main")
	if code != 0 || !strings.Contains(out, "summarised 1, skipped 0") {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	code, out, _ = runCLI(t, r.Dir, "enhance", "--json")
	var st struct{ Stored, Requests int }
	if err := json.Unmarshal([]byte(out), &st); code != 0 || err != nil || st.Stored != 1 || st.Requests != 0 || len(s.Requests()) != 1 {
		t.Errorf("rerun: exit %d %v %+v", code, err, st)
	}
	if code, _, errOut = runCLI(t, r.Dir, "enhance", "--batch", "0"); code != exitError || !strings.Contains(errOut, "--batch") {
		t.Errorf("exit %d %s", code, errOut)
	}
}
