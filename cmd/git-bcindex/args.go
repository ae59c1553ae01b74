package main

import (
	"strings"

	"github.com/urfave/cli/v2"
)

// interspersed moves a command's flags in front of its arguments, so that
// `git bcindex search retry -k 5 --json` works as git users expect
// (urfave/cli stops reading flags at the first argument). Everything after
// "--" stays an argument.
func interspersed(app *cli.App, args []string) []string {
	i := 1
	for i < len(args) && strings.HasPrefix(args[i], "-") {
		if takesValue(app.Flags, args[i]) {
			i++
		}
		i++
	}
	if i >= len(args) {
		return args
	}
	cmd := app.Command(args[i])
	if cmd == nil || len(cmd.Subcommands) > 0 {
		return args
	}
	var flags, pos []string
	rest := args[i+1:]
	for j := 0; j < len(rest); j++ {
		a := rest[j]
		if a == "--" {
			pos = append(pos, rest[j+1:]...)
			break
		}
		if len(a) > 1 && a[0] == '-' {
			flags = append(flags, a)
			if takesValue(cmd.Flags, a) && j+1 < len(rest) {
				flags = append(flags, rest[j+1])
				j++
			}
			continue
		}
		pos = append(pos, a)
	}
	out := append([]string{}, args[:i+1]...)
	out = append(out, flags...)
	if len(pos) > 0 {
		out = append(append(out, "--"), pos...)
	}
	return out
}

// takesValue reports whether arg names a flag that takes a value in the
// next argument (not a boolean, not written as --name=value).
func takesValue(flags []cli.Flag, arg string) bool {
	name := strings.TrimLeft(arg, "-")
	if strings.Contains(name, "=") {
		return false
	}
	for _, f := range flags {
		for _, n := range f.Names() {
			if n == name {
				_, isBool := f.(*cli.BoolFlag)
				return !isBool
			}
		}
	}
	return false
}
