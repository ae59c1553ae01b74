package main

import (
	"fmt"

	"github.com/urfave/cli/v2"
)

// usageOnStderr makes a wrong flag print the error and then the command's
// usage on stderr, as git does: stdout carries only results, so a script
// reading it never takes the usage for them.
func usageOnStderr(app *cli.App) *cli.App {
	app.OnUsageError = usageToStderr
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

func usageToStderr(c *cli.Context, err error, isSubcommand bool) error {
	fmt.Fprintf(c.App.ErrWriter, "error: %v\n\n", err)
	out := c.App.Writer
	c.App.Writer = c.App.ErrWriter
	defer func() { c.App.Writer = out }()
	if lineage := c.Lineage(); isSubcommand && c.Command != nil && len(lineage) > 1 {
		cli.ShowCommandHelp(lineage[1], c.Command.Name)
	} else {
		cli.HelpPrinter(c.App.ErrWriter, cli.AppHelpTemplate, c.App)
	}
	return exitStatus(exitError)
}
