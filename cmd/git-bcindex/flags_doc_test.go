package main

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// TestEveryFlagDocumented walks every visible command's flags and checks
// that each name, with its usage text, appears in the generated man page and
// in the command's `help`.
func TestEveryFlagDocumented(t *testing.T) {
	app := newApp(io.Discard, io.Discard)
	page, err := app.ToManWithSection(1)
	if err != nil {
		t.Fatal(err)
	}
	// roff escapes '-' as '\-'.
	man := strings.ReplaceAll(page, `\-`, "-")
	var walk func(path []string, cmds []*cli.Command)
	check := func(path []string, flags []cli.Flag) {
		var out bytes.Buffer
		args := append(append([]string{"git-bcindex"}, path...), "--help")
		if code := run(args, &out, &out); code != 0 {
			t.Errorf("%v: exit %d\n%s", args, code, out.String())
		}
		for _, f := range flags {
			for _, n := range f.Names() {
				if n == "help" {
					continue
				}
				dash := "--" + n
				if len(n) == 1 {
					dash = "-" + n
				}
				if !strings.Contains(man, dash) {
					t.Errorf("man page lacks %s of %q", dash, strings.Join(path, " "))
				}
				if len(path) > 0 && !strings.Contains(out.String(), dash) {
					t.Errorf("`git bcindex %s --help` lacks %s", strings.Join(path, " "), dash)
				}
			}
			if d, ok := f.(cli.DocGenerationFlag); ok {
				if d.GetUsage() == "" {
					t.Errorf("%s of %q has no usage text", f.Names()[0], strings.Join(path, " "))
				}
			}
		}
	}
	walk = func(path []string, cmds []*cli.Command) {
		for _, c := range cmds {
			if c.Hidden || c.Name == "help" {
				continue
			}
			p := append(append([]string{}, path...), c.Name)
			if !strings.Contains(man, c.Name) {
				t.Errorf("man page lacks command %q", strings.Join(p, " "))
			}
			check(p, c.Flags)
			walk(p, c.Subcommands)
		}
	}
	check(nil, app.Flags)
	walk(nil, app.Commands)
	for _, want := range []string{"completion", "bash", "zsh", "fish"} {
		if !strings.Contains(man, want) {
			t.Errorf("man page does not mention %q", want)
		}
	}
}
