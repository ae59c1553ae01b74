package main

import (
	"strings"

	"github.com/urfave/cli/v2"
)

// hoistGlobals moves the global flags (--dir, --color, --no-pager) that
// follow a command to before it, so that `git bcindex ask --no-pager Q`
// works as `git bcindex --no-pager ask Q` does, for every command and
// subcommand. A command that defines the flag itself (search's --color)
// keeps it; everything after "--" stays where it is.
func hoistGlobals(app *cli.App, args []string) []string {
	i, cmd := commandAt(app, args)
	if cmd == nil {
		return args
	}
	j := i + 1
	for j < len(args) && len(cmd.Subcommands) > 0 {
		sub := cmd.Command(args[j])
		if sub == nil {
			break
		}
		cmd, j = sub, j+1
	}
	var hoisted, rest []string
	for k := j; k < len(args); k++ {
		a := args[k]
		if a == "--" {
			rest = append(rest, args[k:]...)
			break
		}
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "--") || lookupFlag(app.Flags, name) == nil || lookupFlag(cmd.Flags, name) != nil {
			rest = append(rest, a)
			if strings.HasPrefix(a, "-") && takesValue(cmd.Flags, a) && k+1 < len(args) {
				rest = append(rest, args[k+1]) // a value, even one spelt like a flag
				k++
			}
			continue
		}
		hoisted = append(hoisted, a)
		if takesValue(app.Flags, a) && k+1 < len(args) {
			hoisted = append(hoisted, args[k+1])
			k++
		}
	}
	if len(hoisted) == 0 {
		return args
	}
	out := append([]string{}, args[:i]...)
	out = append(out, hoisted...)
	out = append(out, args[i:j]...)
	return append(out, rest...)
}
