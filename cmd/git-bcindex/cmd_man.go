package main

import (
	"fmt"

	"github.com/urfave/cli/v2"
)

// manCommand prints the man page. git turns `git bcindex --help` into
// `git help bcindex`, which looks for git-bcindex(1); install.sh installs it.
func manCommand() *cli.Command {
	return &cli.Command{
		Name:   "man",
		Usage:  "print the git-bcindex(1) man page (roff)",
		Hidden: true,
		Action: func(c *cli.Context) error {
			manEscape(c.App)
			page, err := c.App.ToManWithSection(1)
			if err != nil {
				return fmt.Errorf("render man page: %w", err)
			}
			page += manSections()
			_, err = fmt.Fprint(c.App.Writer, page)
			return err
		},
	}
}
