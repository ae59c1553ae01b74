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
	i, cmd := commandAt(app, args)
	if cmd == nil || len(cmd.Subcommands) > 0 || cmd.SkipFlagParsing {
		return args // a command that reads its options itself, as git grep
	}
	var flags, pos []string
	rest := args[i+1:]
	for j := 0; j < len(rest); j++ {
		a := rest[j]
		if a == "--" {
			pos = append(pos, rest[j+1:]...)
			break
		}
		if name, value, ok := attachedShort(cmd.Flags, a); ok {
			flags = append(flags, canonical(cmd.Flags, name), value)
			continue
		}
		if len(a) > 1 && a[0] == '-' {
			flags = append(flags, canonical(cmd.Flags, a))
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

// commandAt returns where the command stands in args, after the global
// flags, and the command it names (nil when args name none).
func commandAt(app *cli.App, args []string) (int, *cli.Command) {
	i := 1
	for i < len(args) && strings.HasPrefix(args[i], "-") {
		if takesValue(app.Flags, args[i]) {
			i++
		}
		i++
	}
	if i >= len(args) {
		return i, nil
	}
	return i, app.Command(args[i])
}

// takesValue reports whether arg names a flag that takes a value in the
// next argument (not a boolean, not written as --name=value).
func takesValue(flags []cli.Flag, arg string) bool {
	name := strings.TrimLeft(arg, "-")
	if strings.Contains(name, "=") {
		return false
	}
	if f := lookupFlag(flags, name); f != nil {
		df, ok := f.(cli.DocGenerationFlag)
		return ok && df.TakesValue()
	}
	return false
}

// canonical spells a flag by its first name (-r main becomes --ref main),
// so that a repeatable flag may be given under any of its names: urfave/cli
// refuses two forms of one flag.
func canonical(flags []cli.Flag, arg string) string {
	name, value, hasValue := strings.Cut(strings.TrimLeft(arg, "-"), "=")
	f := lookupFlag(flags, name)
	if f == nil || f.Names()[0] == name {
		return arg
	}
	out := dashed(f.Names()[0])
	if hasValue {
		out += "=" + value
	}
	return out
}

func lookupFlag(flags []cli.Flag, name string) cli.Flag {
	for _, f := range flags {
		for _, n := range f.Names() {
			if n == name {
				return f
			}
		}
	}
	return nil
}

// attachedShort splits a one-letter flag written with its value attached,
// as git and ripgrep take them: -k1 is -k 1, -C0 is -C 0. It applies only
// when no flag is named by the whole word (-k1 is no flag's name) and the
// letter names a flag that takes a value.
func attachedShort(flags []cli.Flag, arg string) (name, value string, ok bool) {
	if len(arg) < 3 || arg[0] != '-' || arg[1] == '-' || strings.Contains(arg, "=") || lookupFlag(flags, arg[1:]) != nil {
		return "", "", false
	}
	if !takesValue(flags, arg[:2]) {
		return "", "", false
	}
	return arg[:2], arg[2:], true
}
