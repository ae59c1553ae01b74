package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/bcindex/bcindex/query"
)

// filterFlags are the result filters shared by search, log and similar.
func filterFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "path", Usage: "only files matching `GLOB` (e.g. 'pkg/**/*.go', '*.py'; '!GLOB' excludes)"},
		&cli.StringSliceFlag{Name: "exclude", Usage: "leave out files matching `GLOB` (repeatable)"},
		&cli.StringFlag{Name: "lang", Usage: "only chunks in `LANGUAGE` (go, python, typescript, ...)"},
		&cli.StringFlag{Name: "kind", Usage: "only chunks of `KIND` (function, method, class, type, section, ...)"},
	}
}

// snippetFlags shape the code shown with each hit.
func snippetFlags() []cli.Flag {
	return []cli.Flag{
		&cli.IntFlag{Name: "context", Aliases: []string{"C"}, Value: 2, Usage: "lines of context around each snippet"},
		&cli.IntFlag{Name: "max-lines", Value: 12, Usage: "snippet lines per hit, -C context included (0: the whole chunk)"},
	}
}

// flags concatenates flag lists.
func flags(lists ...[]cli.Flag) []cli.Flag {
	var out []cli.Flag
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// queryArgs parses the query the arguments spell, once for the whole
// command (the search and the highlighting read it), and checks -k.
func queryArgs(c *cli.Context, maxK int) (*query.Query, error) {
	q, err := query.Parse(strings.Join(c.Args().Slice(), " "))
	if err != nil {
		return nil, err
	}
	if k := c.Int("k"); k < 1 || k > maxK {
		return nil, usageError{fmt.Sprintf("-k must be between 1 and %d", maxK)}
	}
	return &q, nil
}
