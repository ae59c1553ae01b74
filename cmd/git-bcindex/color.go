package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/go-git/go-git/v5/config"
	"github.com/urfave/cli/v2"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/query"
)

// Colours, as git paints grep and log output: file names magenta, line
// numbers green, separators cyan, matches bold red, commits yellow.
const (
	sgrReset  = "\x1b[m"
	sgrPath   = "\x1b[1;35m"
	sgrLine   = "\x1b[32m"
	sgrSep    = "\x1b[36m"
	sgrMatch  = "\x1b[1;31m"
	sgrDim    = "\x1b[2m"
	sgrBold   = "\x1b[1m"
	sgrCommit = "\x1b[33m"
	sgrAdd    = "\x1b[32m"
	sgrDel    = "\x1b[31m"
)

// colorFlag is --color, accepted before the command (like git's -c
// color.ui) and after it.
func colorFlag() cli.Flag {
	return &cli.StringFlag{Name: "color", Aliases: []string{"colour"}, Value: "auto",
		Usage: "colour output: `WHEN` is auto (on a terminal, unless NO_COLOR is set), always or never; default from git config color.bcindex or color.ui"}
}

// globalString returns the value of a flag defined both on the app and on
// the command: the innermost one given wins.
func globalString(c *cli.Context, name string) (string, bool) {
	for _, ctx := range c.Lineage() {
		if ctx.IsSet(name) {
			return ctx.String(name), true
		}
	}
	return "", false
}

// globalBool is globalString for a boolean flag.
func globalBool(c *cli.Context, name string) bool {
	for _, ctx := range c.Lineage() {
		if ctx.IsSet(name) && ctx.Bool(name) {
			return true
		}
	}
	return false
}

// gitConfig reads the repository's git config merged over the global one,
// with `git -c` settings over both (Repo.Config); nil when there is none to
// read.
func gitConfig(repo *gitindex.Repo) *config.Config {
	if repo == nil {
		return nil
	}
	cfg, err := repo.Config()
	if err != nil {
		return nil
	}
	return cfg
}

// colorWhen decides --color: the flag, else color.bcindex, else color.ui,
// else auto. Git's "true" means auto.
func colorWhen(c *cli.Context, cfg *config.Config) (string, error) {
	if v, ok := globalString(c, "color"); ok {
		switch v {
		case "auto", "always", "never":
			return v, nil
		}
		return "", usageError{fmt.Sprintf("--color=%s: want auto, always or never", v)}
	}
	if cfg != nil {
		for _, key := range []string{"bcindex", "ui"} {
			switch v := strings.ToLower(strings.TrimSpace(cfg.Raw.Section("color").Option(key))); v {
			case "always":
				return "always", nil
			case "never", "false", "off", "no", "0":
				return "never", nil
			case "auto", "true", "on", "yes", "1":
				return "auto", nil
			}
		}
	}
	return "auto", nil
}

// wantColor resolves auto: colour on a terminal (or into a pager git
// started for us), never when piped, never with NO_COLOR or TERM=dumb.
func wantColor(when string, stdout io.Writer) bool {
	switch when {
	case "always":
		return true
	case "never":
		return false
	}
	if os.Getenv("NO_COLOR") != "" || os.Getenv("TERM") == "dumb" {
		return false
	}
	return isTerminal(stdout) || os.Getenv("GIT_PAGER_IN_USE") == "true"
}

// colorizer writes SGR sequences when colour is on and plain text otherwise.
type colorizer struct {
	on bool
	q  *query.Query // whose tokens to highlight; nil: none
	// null (-z): a path is printed as it is, not quoted, and ends with a
	// NUL instead of the separator (or newline) that follows it, as with
	// git grep -z, so that scripts read any path.
	null bool
}

// path prints a path followed by sep, its separator from what follows.
func (p colorizer) path(s, sep string) string {
	if p.null {
		return s + "\x00"
	}
	return p.paint(sgrPath, quotePath(s)) + p.paint(sgrSep, sep)
}

func newColorizer(on bool, q *query.Query) colorizer { return colorizer{on: on, q: q} }

func (p colorizer) paint(sgr, s string) string {
	if !p.on || s == "" {
		return s
	}
	return sgr + s + sgrReset
}

// highlight paints the parts of a code line whose tokens are query tokens
// (query.Query's Marks: the keyword index's tokenizer, so "backoff"
// lights up in retryWithBackoff).
func (p colorizer) highlight(line string) string {
	if !p.on || p.q == nil {
		return line
	}
	marks := p.q.Marks(line)
	if len(marks) == 0 {
		return line
	}
	var b strings.Builder
	at := 0
	for _, m := range marks {
		b.WriteString(line[at:m[0]])
		b.WriteString(sgrMatch + line[m[0]:m[1]] + sgrReset)
		at = m[1]
	}
	b.WriteString(line[at:])
	return b.String()
}
