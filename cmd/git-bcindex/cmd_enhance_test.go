package main

import (
	"encoding/json"
	"os"
	"path/filepath"
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

// With bcindex.enhance.hooks true, the background round after a commit
// summarises the chunks of the files the commit added, and only those.
func TestEnhanceInHooks(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", map[string]string{"store/repo.go": sample})
	if code, _, errOut := runCLI(t, r.Dir, "index"); code != 0 {
		t.Fatal(errOut)
	}
	var asked []string
	s := chattest.NewFunc(t, func(_ int, req llm.Request) chattest.Step {
		asked = append(asked, req.Messages[1].Content)
		return chattest.Text(`{"chunks":[{"id":1,"summary":"Closes the repository.","keywords":["close","repository","release"],"purpose":"close a repository"}]}`)
	})
	r.Git("config", "bcindex.enhance.url", s.URL)
	r.Git("config", "bcindex.enhance.model", "scripted")
	r.Commit("close", map[string]string{"store/close.go": "package store\n\n// CloseRepository closes it.\nfunc CloseRepository() error {\n\treturn nil\n}\n"})
	pending := filepath.Join(r.Dir, ".git", "bcindex", "hook.pending")
	os.WriteFile(pending, []byte("post-commit\n"), 0o644)
	code, _, errOut := runCLI(t, r.Dir, "hook", "worker")
	if code != 0 || strings.Contains(errOut, "enhanced=") || len(asked) != 0 {
		t.Fatalf("hooks off: exit %d, %d requests\n%s", code, len(asked), errOut)
	}
	r.Git("config", "bcindex.enhance.hooks", "true")
	r.Commit("close2", map[string]string{"store/close.go": "package store\n\n// CloseRepository closes it.\nfunc CloseRepository() error {\n\treturn nil // done\n}\n"})
	os.WriteFile(pending, []byte("post-commit\n"), 0o644)
	code, _, errOut = runCLI(t, r.Dir, "hook", "worker")
	if code != 0 || !strings.Contains(errOut, "enhanced=1 skipped=0") || len(asked) != 1 || !strings.Contains(asked[0], "CloseRepository") || strings.Contains(asked[0], "OpenRepository") {
		t.Fatalf("exit %d, asked %q\n%s", code, asked, errOut)
	}
}
