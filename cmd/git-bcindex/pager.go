package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"github.com/go-git/go-git/v5/config"
	"github.com/urfave/cli/v2"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/query"
)

// noPagerFlag is --no-pager, accepted before the command (as git takes it)
// and after it.
func noPagerFlag() cli.Flag {
	return &cli.BoolFlag{Name: "no-pager", Usage: "do not pipe output into a pager (see PAGER in the man page)"}
}

// displayFlags are the flags of every command that prints results for people.
func displayFlags() []cli.Flag { return []cli.Flag{colorFlag(), noPagerFlag()} }

// output is where a command prints results: stdout, or the stdin of a pager
// when stdout is a terminal, as git does for log and grep.
type output struct {
	w     io.Writer
	paint colorizer
	close func() error
}

// openOutput decides colour and starts the pager. query's tokens are
// highlighted in snippets. close waits for the pager to exit.
func openOutput(c *cli.Context, repo *gitindex.Repo, q *query.Query) (*output, error) {
	cfg := gitConfig(repo)
	when, err := colorWhen(c, cfg)
	if err != nil {
		return nil, err
	}
	stdout := c.App.Writer
	o := &output{w: stdout, paint: newColorizer(wantColor(when, stdout), q), close: func() error { return nil }}
	o.paint.null = c.Bool("null")
	if !globalBool(c, "no-pager") && isTerminal(stdout) {
		startPager(c, cfg, o)
	}
	return o, nil
}

// startPager starts the pager git would (pagerCommand) on stdout and
// points out at its input; out.close waits for it. Without a pager, or
// when it does not start (a warning says so), out is left as it is.
func startPager(c *cli.Context, cfg *config.Config, out *output) {
	pager := pagerCommand(cfg)
	if pager == "" {
		return
	}
	cmd := exec.Command("sh", "-c", pager)
	cmd.Stdout, cmd.Stderr = out.w, c.App.ErrWriter
	cmd.Env = pagerEnv(os.Environ())
	in, err := cmd.StdinPipe()
	if err != nil {
		return
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(c.App.ErrWriter, "warning: pager %q did not start (%v); printing without it\n", pager, err)
		return
	}
	out.w = in
	out.close = func() error {
		in.Close()
		cmd.Wait() // the pager's exit status (q before the end) is not an error
		return nil
	}
}

// pagerCommand picks the pager as git does for a command named bcindex:
// GIT_PAGER, pager.bcindex (false: none; a command: that), core.pager,
// PAGER, then less. "cat" and "" mean no pager.
func pagerCommand(cfg *config.Config) string {
	p, set := os.LookupEnv("GIT_PAGER")
	if cfg != nil {
		per := strings.TrimSpace(cfg.Raw.Section("pager").Option("bcindex"))
		switch strings.ToLower(per) {
		case "false", "no", "off", "0":
			return ""
		case "", "true", "yes", "on", "1":
		default:
			if !set {
				p, set = per, true
			}
		}
		if !set {
			if v := cfg.Raw.Section("core").Option("pager"); v != "" {
				p, set = v, true
			}
		}
	}
	if !set {
		p, set = os.LookupEnv("PAGER")
	}
	if !set {
		p = "less"
	}
	if p = strings.TrimSpace(p); p == "cat" {
		return ""
	}
	return p
}

// pagerEnv sets what git sets for its pager: LESS=FRX (quit if one screen,
// raw colour, keep the screen) and LV=-c unless the user chose otherwise,
// and GIT_PAGER_IN_USE so that colour stays on through it.
func pagerEnv(env []string) []string {
	if _, ok := os.LookupEnv("LESS"); !ok {
		env = append(env, "LESS=FRX")
	}
	if _, ok := os.LookupEnv("LV"); !ok {
		env = append(env, "LV=-c")
	}
	return append(env, "GIT_PAGER_IN_USE=true")
}
