package main

import (
	"fmt"
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/bcindex/bcindex/chunk"
	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/store/storewrite"
)

// TestMain lets the test binary run as git-bcindex inside the scripts of
// testdata/script, where git finds it on PATH as `git bcindex`.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"git-bcindex": func() { os.Exit(run(os.Args, os.Stdout, os.Stderr)) },
		// git-bcindex-loads runs a command as git-bcindex does, then says
		// on stderr what it loaded: the model's tables, the tree-sitter
		// grammars, and how many Badger databases it opened.
		"git-bcindex-loads": func() {
			code := run(os.Args, os.Stdout, os.Stderr)
			fmt.Fprintf(os.Stderr, "loaded: model=%v grammars=%v badger=%d\n",
				embed.BuiltinLoaded(), chunk.GrammarsLoaded(), storewrite.BadgerOpens())
			os.Exit(code)
		},
	})
}

// TestScripts runs the command-line scripts: real git repositories built by
// the scripts, real indexes, the command as users type it.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			env.Setenv("HOME", env.WorkDir)
			env.Setenv("GIT_CONFIG_NOSYSTEM", "1")
			env.Setenv("NO_COLOR", "1")
			for _, k := range []string{"GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME"} {
				env.Setenv(k, "Test")
			}
			for _, k := range []string{"GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL"} {
				env.Setenv(k, "test@example.com")
			}
			env.Setenv("GIT_AUTHOR_DATE", "2024-01-01T00:00:00Z")
			env.Setenv("GIT_COMMITTER_DATE", "2024-01-01T00:00:00Z")
			env.Setenv("TERM", "xterm")
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){"pty": cmdPty},
	})
}
