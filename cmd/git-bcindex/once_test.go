package main

import (
	"io"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// TestSingleValuedFlagsRefuseRepeats gives every single-valued flag of
// every command (and the app's own) twice: each must fail with a usage
// error naming the flag, before the command does anything.
func TestSingleValuedFlagsRefuseRepeats(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", map[string]string{"a.go": sample})
	app := newApp(io.Discard, io.Discard)
	type cmdFlag struct {
		path []string
		f    cli.Flag
	}
	var all []cmdFlag
	var walk func(path []string, cmds []*cli.Command)
	walk = func(path []string, cmds []*cli.Command) {
		for _, c := range cmds {
			p := append(append([]string{}, path...), c.Name)
			if len(c.Subcommands) > 0 {
				walk(p, c.Subcommands)
				continue
			}
			if c.SkipFlagParsing {
				continue // grep reads its options as git does: a repeat wins
			}
			for _, f := range c.Flags {
				all = append(all, cmdFlag{p, f})
			}
		}
	}
	walk(nil, app.Commands)
	for _, f := range app.Flags {
		all = append(all, cmdFlag{[]string{"status"}, f})
	}
	checked := 0
	for _, cf := range all {
		if _, ok := cf.f.(onceFlag); !ok {
			if mv, ok := cf.f.(cli.DocGenerationSliceFlag); !ok || !mv.IsSliceFlag() {
				t.Errorf("%s: flag --%s is neither single-valued (refusing repeats) nor repeatable", strings.Join(cf.path, " "), cf.f.Names()[0])
			}
			continue
		}
		name := dashed(cf.f.Names()[0])
		if strings.Join(cf.path, " ") == "log" && (name == "-S" || name == "-G") {
			continue // log -S/-G reads git log's arguments: the last pattern wins, as in git
		}
		give := []string{name}
		if cf.f.(cli.DocGenerationFlag).TakesValue() {
			give = append(give, valueFor(cf.f))
		}
		args := append(append(append([]string{}, cf.path...), give...), give...)
		if isAppFlag(app, cf.f) {
			args = append(append(append([]string{}, give...), give...), cf.path...)
		}
		code, _, errOut := runCLI(t, r.Dir, args...)
		if code != exitError || !strings.Contains(errOut, name+" was given more than once") {
			t.Errorf("git bcindex %s: exit %d, stderr %q; want a usage error naming %s", strings.Join(args, " "), code, errOut, name)
		}
		checked++
	}
	if checked < 20 {
		t.Fatalf("checked %d single-valued flags; the commands have more", checked)
	}
}

func isAppFlag(app *cli.App, f cli.Flag) bool {
	for _, g := range app.Flags {
		if g == f {
			return true
		}
	}
	return false
}

// valueFor returns a value the flag's type accepts.
func valueFor(f cli.Flag) string {
	switch f.(onceFlag).fullFlag.(type) {
	case *cli.IntFlag, *cli.Int64Flag, *cli.UintFlag, *cli.Uint64Flag, *cli.Float64Flag:
		return "1"
	case *cli.DurationFlag:
		return "1s"
	}
	return "x"
}
