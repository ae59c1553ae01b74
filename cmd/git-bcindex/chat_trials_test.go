package main

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bcindex/bcindex/internal/testkit/chattest"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// The chat-model commands as a new user meets them, against chattest's
// stand-in for a chat-completions service (its documented wire format):
// a service that hangs, one that answers nonsense, a key put in git config,
// Ctrl-C, and the global flags after the command.

// A service that never answers: both commands wait up to --timeout, print
// a line every 10 s meanwhile (stderr here is not a terminal), then fail
// with the timeout and a hint that agrees with it.
func TestChatCommandsHang(t *testing.T) {
	if testing.Short() {
		t.Skip("waits 12 s for the 10 s waiting line")
	}
	r := gittest.New(t)
	r.Commit("init", map[string]string{"store/repo.go": sample})
	release := make(chan struct{})
	s := chattest.NewFunc(t, func(int, chattest.Request) chattest.Step {
		return func(http.ResponseWriter, chattest.Request) {
			select {
			case <-release:
			case <-time.After(time.Minute):
			}
		}
	})
	t.Cleanup(func() { close(release) })
	r.Git("config", "bcindex.enhance.url", s.URL)
	r.Git("config", "bcindex.enhance.model", "hangs")
	for _, args := range [][]string{{"ask", "--timeout", "12s", "what opens repositories?"}, {"enhance", "--timeout", "12s"}} {
		t.Run(args[0], func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			code, _, errOut := runCLI(t, r.Dir, args...)
			took := time.Since(start)
			if code != exitError || !strings.Contains(errOut, "nothing within 12s") || !strings.Contains(errOut, "hint: wait longer with --timeout") {
				t.Errorf("exit %d after %s:\n%s", code, took, errOut)
			}
			if !strings.Contains(errOut, args[0]+": waiting for hangs at "+s.URL+": 10s so far (gives up at 12s)") {
				t.Errorf("no waiting line:\n%s", errOut)
			}
			if took > 40*time.Second {
				t.Errorf("took %s: the timed-out request was sent again", took)
			}
		})
	}
}

// A service that answers every request with something that is not a
// chat-completions answer: enhance stops after a few requests and exits
// 2 saying why.
func TestEnhanceAllFailedExits2(t *testing.T) {
	r := gittest.New(t)
	files := map[string]string{}
	for _, name := range []string{"a", "b", "c", "d", "e", "f"} {
		files["pkg/"+name+".go"] = "package pkg\n\n// Do" + name + " does " + name + ".\nfunc Do" + name + "() int { return 1 }\n"
	}
	r.Commit("init", files)
	s := chattest.NewFunc(t, func(int, chattest.Request) chattest.Step { return chattest.Raw("<html>gateway</html>") })
	r.Git("config", "bcindex.enhance.url", s.URL)
	r.Git("config", "bcindex.enhance.model", "nonsense")
	code, out, errOut := runCLI(t, r.Dir, "enhance", "--batch", "1")
	if code != exitError || !strings.Contains(errOut, "no request brought back a usable summary in 6 requests") ||
		!strings.Contains(errOut, "<html>gateway</html>") || !strings.Contains(errOut, "hint: check bcindex.enhance.url") {
		t.Errorf("exit %d\nstdout: %s\nstderr: %s", code, out, errOut)
	}
	if n := len(s.Requests()); n != 6 {
		t.Errorf("%d requests, want 6 (three batches, each asked twice)", n)
	}
}

// A key pasted into git config is refused, and the hint says to remove
// it, not to set it.
func TestChatKeyInGitConfig(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", map[string]string{"store/repo.go": sample})
	r.Git("config", "bcindex.enhance.url", "http://127.0.0.1:9/v1")
	r.Git("config", "bcindex.enhance.model", "m")
	r.Git("config", "bcindex.enhance.key", "sk-secret")
	code, _, errOut := runCLI(t, r.Dir, "ask", "q")
	if code != exitError || !strings.Contains(errOut, "error: git config bcindex.enhance.key: keys are not read from git config") ||
		!strings.Contains(errOut, "hint: remove it (`git config --unset bcindex.enhance.key`)") || strings.Contains(errOut, "set it with `git config bcindex.enhance.key") {
		t.Errorf("exit %d:\n%s", code, errOut)
	}
	if strings.Contains(errOut, "sk-secret") {
		t.Errorf("the key is printed:\n%s", errOut)
	}
}

// Ctrl-C says what the interrupted command keeps.
func TestInterruptedNotes(t *testing.T) {
	app := newApp(nil, nil)
	cases := map[string][]string{
		"no answer; nothing was stored":        {"git-bcindex", "--dir", "x", "ask", "why?"},
		"summaries received so far are stored": {"git-bcindex", "enhance", "--batch", "2"},
		"finished part of the index is kept":   {"git-bcindex", "index"},
	}
	for want, args := range cases {
		var b strings.Builder
		err := errors.Join(errors.New("ask: chat with m"), context.Canceled)
		if code := exitCode(err, &b, interruptedNote(app, args)); code != exitInterrupted || !strings.Contains(b.String(), "interrupted: ") || !strings.Contains(b.String(), want) {
			t.Errorf("%v: exit %d, %q", args, code, b.String())
		}
	}
}

// --no-pager, --color and --dir after any command or subcommand are taken
// as before it; a command's own --color stays its own.
func TestGlobalFlagsAfterCommand(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", map[string]string{"store/repo.go": sample})
	app := newApp(nil, nil)
	var paths [][]string
	for _, c := range app.Commands {
		if c.Hidden {
			continue
		}
		paths = append(paths, []string{c.Name})
		for _, sub := range c.Subcommands {
			paths = append(paths, []string{c.Name, sub.Name})
		}
	}
	if len(paths) < 15 {
		t.Fatalf("only %d commands", len(paths))
	}
	for _, p := range paths {
		// --color=never and --help: grep reads "--color never" as git grep
		// does, the colour then the pattern, and -h as git's -h.
		help := "-h"
		if p[0] == "grep" {
			help = "--help"
		}
		args := append(append([]string{"git-bcindex"}, p...), "--no-pager", "--color=never", "--dir", r.Dir, help)
		var out, errOut strings.Builder
		if code := run(args, &out, &errOut); code != 0 || strings.Contains(errOut.String(), "not defined") {
			t.Errorf("%v: exit %d: %s", p, code, errOut.String())
		}
	}
	hoisted := hoistGlobals(app, []string{"git-bcindex", "grep", "--color=always", "x", "--dir", "d", "--", "--no-pager"})
	if got := strings.Join(hoisted, " "); got != "git-bcindex --dir d grep --color=always x -- --no-pager" {
		t.Errorf("hoisted: %s", got)
	}
	var out, errOut strings.Builder
	if code := run([]string{"git-bcindex", "grep", "-n", "OpenRepository", "--no-pager", "--dir", r.Dir}, &out, &errOut); code != 0 || !strings.Contains(out.String(), "store/repo.go:") {
		t.Errorf("grep ... --dir: exit %d %s %s", code, out.String(), errOut.String())
	}
}
