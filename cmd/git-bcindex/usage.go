package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"
	"github.com/xrash/smetrics"
)

// usageOnStderr makes a wrong flag print a short error and a hint on
// stderr, as git does (the whole usage is a -h away): stdout carries only
// results, so a script reading it never takes the usage for them. An
// unknown command says so, with the most similar one, instead of looking
// for a help topic.
func usageOnStderr(app *cli.App) *cli.App {
	app.OnUsageError = usageToStderr
	app.CommandNotFound = commandNotFound
	var walk func([]*cli.Command)
	walk = func(cmds []*cli.Command) {
		for _, c := range cmds {
			c.OnUsageError = usageToStderr
			walk(c.Subcommands)
		}
	}
	walk(app.Commands)
	return app
}

// unknownCommandKey is where commandNotFound leaves the unknown command for
// run, which turns it into an error (urfave/cli's hook returns none).
const unknownCommandKey = "unknown-command"

// unknownCommand is a command line naming no command.
type unknownCommand struct {
	parent, name, similar string
}

func (e unknownCommand) Error() string {
	return fmt.Sprintf("'%s' is not a %s command", e.name, e.parent)
}

func (e unknownCommand) hint() string {
	h := "`" + e.parent + " help` lists them"
	if e.parent != "git bcindex" {
		h = "`" + e.parent + " --help` lists them"
	}
	if e.similar != "" {
		return fmt.Sprintf("the most similar command is `%s %s`; %s", e.parent, e.similar, h)
	}
	return h
}

func commandNotFound(c *cli.Context, name string) {
	parent, cmds := "git bcindex", c.App.Commands
	if c.Command != nil && c.Command.Name != "" && c.Command.Name != "help" {
		parent, cmds = strings.TrimSpace(c.Command.HelpName), c.Command.Subcommands
	}
	e := unknownCommand{parent: parent, name: name}
	best := 0.0
	for _, cmd := range cmds {
		if cmd.Hidden {
			continue
		}
		for _, n := range cmd.Names() {
			if d := similarity(n, name); d > best {
				best, e.similar = d, cmd.Name
			}
		}
	}
	if best < similarEnough {
		e.similar = ""
	}
	if c.App.Metadata == nil {
		c.App.Metadata = map[string]any{}
	}
	c.App.Metadata[unknownCommandKey] = e
}

// similarEnough is the Jaro-Winkler similarity from which a name is
// offered as the one meant (statu → status, serch → search).
const similarEnough = 0.8

func similarity(a, b string) float64 { return smetrics.JaroWinkler(a, b, 0.7, 4) }

func usageToStderr(c *cli.Context, err error, isSubcommand bool) error {
	msg, help := err.Error(), "git bcindex --help"
	flags := c.App.Flags
	if isSubcommand && c.Command != nil {
		help, flags = strings.TrimSpace(c.Command.HelpName)+" --help", c.Command.Flags
	}
	hint := "see `" + help + "`"
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		msg = fmt.Sprintf("unknown option `%s'", strings.TrimLeft(name, "-"))
		best, similar := 0.0, ""
		for _, f := range flags {
			for _, n := range f.Names() {
				if d := similarity(n, strings.TrimLeft(name, "-")); d > best {
					best, similar = d, n
				}
			}
		}
		if best >= similarEnough {
			dash := "--"
			if len(similar) == 1 {
				dash = "-"
			}
			hint = fmt.Sprintf("did you mean %s%s? %s", dash, similar, hint)
		}
	}
	fmt.Fprintf(c.App.ErrWriter, "error: %s\nhint: %s\n", msg, hint)
	return exitStatus(exitError)
}
