package main

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// TestMaxLinesCapsTheSnippet: --max-lines caps the lines shown of a hit,
// its -C context included; the chunk's own lines come first.
func TestMaxLinesCapsTheSnippet(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", map[string]string{"store/repo.go": sample})
	for _, tc := range []struct {
		args []string
		want int
	}{
		{[]string{"--max-lines", "1", "-C", "2"}, 1},
		{[]string{"--max-lines", "3", "-C", "5"}, 3},
	} {
		args := append([]string{"search", "--mode", "symbol", "-k1", "--color", "never"}, tc.args...)
		code, out, errOut := runCLI(t, r.Dir, append(args, "OpenRepository")...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", tc.args, code, errOut)
		}
		n := strings.Count(out, "│")
		if n != tc.want || !strings.Contains(out, "    3 │ // OpenRepository") {
			t.Errorf("%v: %d lines of code, want %d from the chunk's first (line 3):\n%s", tc.args, n, tc.want, out)
		}
	}
}

// TestStatusAfterGrep: grep indexes without vectors; status then says they
// are not computed yet, not that the model was switched.
func TestStatusAfterGrep(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", map[string]string{"store/repo.go": sample})
	if code, _, errOut := runCLI(t, r.Dir, "grep", "OpenRepository"); code != 0 {
		t.Fatalf("grep exit %d: %s", code, errOut)
	}
	code, out, errOut := runCLI(t, r.Dir, "status")
	if code != 0 || strings.Contains(out, "switched") || !strings.Contains(out, "not computed yet") {
		t.Errorf("status after grep: exit %d\n%s%s", code, out, errOut)
	}
}

// TestUnknownCommandAndOption: an unknown command or option gets one error
// line and a hint on stderr, as git gives, and exit 2 (bad usage); not a
// help topic, not the whole usage.
func TestUnknownCommandAndOption(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", map[string]string{"store/repo.go": sample})
	for _, tc := range []struct {
		args       []string
		want, hint string
	}{
		{[]string{"bogus"}, "error: 'bogus' is not a git bcindex command\n", "hint: `git bcindex help` lists them\n"},
		{[]string{"serch", "x"}, "error: 'serch' is not a git bcindex command\n", "hint: the most similar command is `git bcindex search`; `git bcindex help` lists them\n"},
		{[]string{"agents", "instal"}, "error: 'instal' is not a git bcindex agents command\n", "hint: the most similar command is `git bcindex agents install`; `git bcindex agents --help` lists them\n"},
		{[]string{"search", "--bogus", "x"}, "error: unknown option `bogus'\n", "hint: see `git bcindex search --help`\n"},
		{[]string{"search", "--max-line", "3", "x"}, "error: unknown option `max-line'\n", "hint: did you mean --max-lines? see `git bcindex search --help`\n"},
		{[]string{"--bogus", "status"}, "error: unknown option `bogus'\n", "hint: see `git bcindex --help`\n"},
	} {
		code, out, errOut := runCLI(t, r.Dir, tc.args...)
		if code != exitError || out != "" || errOut != tc.want+tc.hint {
			t.Errorf("%v: exit %d\nstdout: %s\nstderr: %q\nwant:   %q", tc.args, code, out, errOut, tc.want+tc.hint)
		}
	}
}

// TestHelpStillShown: no command, and help with a known topic, still show
// the usage and exit 0.
func TestHelpStillShown(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	// The binary, not run in process: urfave/cli's shared help command,
	// once run as `help CMD`, lists itself under itself for the rest of
	// the process, which a later in-process man page would walk forever.
	bin := buildBinary(t)
	r := gittest.New(t)
	r.Commit("init", map[string]string{"store/repo.go": sample})
	for _, args := range [][]string{{}, {"help", "search"}, {"agents"}} {
		var out, errOut strings.Builder
		cmd := exec.Command(bin, append([]string{"--dir", r.Dir}, args...)...)
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		if err != nil || !strings.Contains(out.String(), "USAGE:") || errOut.String() != "" {
			t.Errorf("%v: %v\nstdout: %.200s\nstderr: %s", args, err, out.String(), errOut.String())
		}
	}
}
