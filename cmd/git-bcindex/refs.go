package main

import (
	"github.com/urfave/cli/v2"

	"github.com/bcindex/bcindex/gitindex"
)

// refFlags select the revisions a command covers: --ref, repeatable and
// taking globs over ref names, and whole groups of refs.
func refFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringSliceFlag{Name: "ref", Aliases: []string{"r"}, Usage: "revision `REV` to search: branch, tag, SHA, HEAD~3, or a glob over ref names " +
			"('refs/heads/*', 'release/*', 'v1.*'); repeatable (default: HEAD)"},
		&cli.BoolFlag{Name: "all-branches", Usage: "search every local and remote-tracking branch"},
		&cli.BoolFlag{Name: "tags", Usage: "search every tag"},
		&cli.BoolFlag{Name: "all", Usage: "search every ref (branches, remote-tracking branches, tags, others), and HEAD when detached"},
	}
}

// refSelection reads the flags of refFlags.
func refSelection(c *cli.Context) gitindex.RefSelection {
	return gitindex.RefSelection{
		Patterns:    c.StringSlice("ref"),
		AllBranches: c.Bool("all-branches"),
		Tags:        c.Bool("tags"),
		All:         c.Bool("all"),
	}
}
