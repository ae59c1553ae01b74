package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/grep/gitgrep"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/store"
)

func grepCommand() *cli.Command {
	return &cli.Command{
		Name:  "grep",
		Usage: "print the lines matching patterns, as git grep does, from the index",
		ArgsUsage: "[<options>] [-e] <pattern> [<rev>...] [[--] <path>...]\n\n" +
			"   A drop-in for git grep: the same options, patterns (basic regular expressions by default; -E, -F,\n" +
			"   -P, and grep.patternType), pattern expressions (-e P --and -e Q, --or, --not, ( ), --all-match),\n" +
			"   revisions (any commit, tree or blob: main, v1.0~2, 'main^{tree}', HEAD:dir), pathspecs with\n" +
			"   their magic (:(top), :(icase), :(glob), :!), paths relative to the current directory, and\n" +
			"   output, byte for byte. Without a revision it searches the working tree's tracked files (with\n" +
			"   --cached the index, with --untracked untracked files too, with --no-index any directory).\n" +
			"   Blobs the index covers are read only when their trigrams do not rule them out.\n" +
			"   Exit status: 0 with a match, 1 with none, 128 for what git refuses, 129 for a bad option.",
		SkipFlagParsing: true,
		HideHelp:        true,
		Flags:           grepCLIFlags(),
		Action:          runGrep,
	}
}

// grepCLIFlags describe git grep's options for help and the man page;
// gitgrep.Parse reads them.
func grepCLIFlags() []cli.Flag {
	var out []cli.Flag
	for _, f := range gitgrep.Flags() {
		name, aliases := f.Long, []string(nil)
		if name == "" {
			name = string(f.Short)
		} else if f.Short != 0 {
			aliases = []string{string(f.Short)}
		}
		if f.TakesValue {
			out = append(out, &cli.StringFlag{Name: name, Aliases: aliases, Usage: f.Usage})
		} else {
			out = append(out, &cli.BoolFlag{Name: name, Aliases: aliases, Usage: f.Usage})
		}
	}
	return out
}

func runGrep(c *cli.Context) error {
	o, err := gitgrep.Parse(c.Args().Slice())
	var bad gitgrep.UsageError
	if errors.As(err, &bad) && bad.OnStdout {
		if herr := cli.ShowCommandHelp(c, "grep"); herr != nil {
			return herr
		}
		return bad
	}
	if err != nil {
		return err
	}
	if help, short := o.Help(); help {
		if err := cli.ShowCommandHelp(c, "grep"); err != nil || !short {
			return err
		}
		return exitStatus(129)
	}
	env, err := grepEnv(c, o.NoIndex())
	if err != nil {
		return err
	}
	err = gitgrep.Run(c.Context, o, env)
	var arg gitgrep.ArgError
	var status gitgrep.ExitStatus
	switch {
	case errors.Is(err, gitgrep.ErrNoMatch):
		return errNoResults
	case errors.As(err, &arg):
		return usageError{arg.Error()}
	case errors.As(err, &status):
		return exitStatus(status)
	}
	return err
}

// grepEnv opens the repository (none is needed with --no-index) and says
// how grep indexes, prints, pages and quotes.
func grepEnv(c *cli.Context, noIndex bool) (*gitgrep.Env, error) {
	stdout, stderr := c.App.Writer, c.App.ErrWriter
	env := &gitgrep.Env{
		Stdout: stdout, Stderr: stderr, Quote: quotePath,
		WantColor: func(when string) bool { return wantColor(when, stdout) },
	}
	env.Color, _ = globalString(c, "color")
	env.Pager = func() (io.Writer, func() error) {
		out := &output{w: stdout, close: func() error { return nil }}
		if !globalBool(c, "no-pager") && isTerminal(stdout) {
			startPager(c, env.Config, out)
		}
		return out.w, out.close
	}
	repo, err := openRepo(c)
	if err != nil {
		if !errors.Is(err, gitindex.ErrNotRepository) || !noIndex {
			if errors.Is(err, gitindex.ErrNotRepository) {
				return nil, gitgrep.Fatal{Msg: "not a git repository (or any of the parent directories): .git"}
			}
			return nil, err
		}
		dir := c.String("dir")
		if dir == "" {
			dir = "."
		}
		env.Top, _ = filepath.Abs(dir)
		env.PagerCommand = pagerCommand(nil)
		return env, nil
	}
	settings, err := readSettings(repo)
	if err != nil {
		return nil, err
	}
	env.Repo, env.Prefix, env.Top = repo, repo.Prefix(), repo.WorkTree
	env.Config = gitConfig(repo)
	env.PagerCommand = pagerCommand(env.Config)
	env.Open = func(ctx context.Context, want store.Want, progress, noUpdate bool) (*store.View, error) {
		iopts := settings.indexOptions()
		if progress {
			iopts.Progress = newProgress(stderr)
		}
		v, sum, err := indexer.Ensure(ctx, repo, iopts, indexer.Request{Want: want, Parts: indexer.Exact, NoIndex: noUpdate, LockWait: time.Second})
		if err != nil {
			return nil, err
		}
		if sum != nil && sum.Repaired != "" {
			fmt.Fprintf(stderr, "warning: %s\n", sum.Repaired)
		}
		return v, nil
	}
	return env, nil
}
