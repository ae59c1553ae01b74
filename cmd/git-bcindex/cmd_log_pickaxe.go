package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/mattn/go-isatty"
	"github.com/urfave/cli/v2"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/pickaxe"
	"github.com/bcindex/bcindex/query"
	"github.com/bcindex/bcindex/timeline"
)

// pickaxeFlags switch log to its exact mode, git log's pickaxe.
func pickaxeFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "S", Usage: "exact mode: the commits that changed how many times a file holds `STRING` (git log -S)"},
		&cli.StringFlag{Name: "G", Usage: "exact mode: the commits that added or removed a line matching `REGEX` (git log -G)"},
		&cli.BoolFlag{Name: "pickaxe-regex", Usage: "with -S: STRING is a regex (RE2 syntax)"},
		&cli.BoolFlag{Name: "fixed-strings", Aliases: []string{"F"}, Usage: "with -G: REGEX is a plain string"},
		&cli.BoolFlag{Name: "ignore-case", Aliases: []string{"i"}, Usage: "with -S or -G: ignore case"},
		&cli.BoolFlag{Name: "text", Aliases: []string{"a"}, Usage: "with -G: look into binary files too"},
		&cli.BoolFlag{Name: "reverse", Usage: "with -S or -G: oldest commit first"},
		&cli.BoolFlag{Name: "first", Usage: "with -S or -G: only the oldest commit, the one that introduced it"},
		&cli.IntFlag{Name: "max-count", Usage: "with -S or -G: at most the `N` newest commits"},
	}
}

// pickaxeMode reports whether log was asked for its exact mode.
func pickaxeMode(c *cli.Context) bool { return c.IsSet("S") || c.IsSet("G") }

// exactLogQuery returns the string a log QUERY names verbatim: one in
// double quotes, or a code-shaped identifier (an inner capital, an
// underscore or a digit: ErrConflict, parse_config, utf8Len), unless
// --mode, --lang or --kind ask for the semantic log alone. A query in
// words has none.
func exactLogQuery(c *cli.Context, q *query.Query) (string, bool) {
	if c.IsSet("mode") || c.IsSet("lang") || c.IsSet("kind") || c.NArg() != 1 {
		return "", false
	}
	if q.Shape == query.Phrase {
		return q.Literal, q.Literal != ""
	}
	return q.Text, q.CodeName()
}

// runPickaxe lists the first-parent commits of --ref where a file's
// matches changed, as `git log --first-parent --no-renames -S/-G` does.
func runPickaxe(c *cli.Context) error {
	opts, err := pickaxeOptions(c, "")
	if err != nil {
		return err
	}
	repo, s, err := openWithSettings(c)
	if err != nil {
		return err
	}
	defer repo.Close()
	tip, err := repo.Resolve(c.String("ref"))
	if err != nil {
		return err
	}
	res, err := searchHistory(c, repo, s, tip.Hash, opts)
	if err != nil {
		return err
	}
	if c.Bool("reverse") && !opts.Oldest {
		slices.Reverse(res)
	}
	// The output is written in blocks: a common string's commits list
	// thousands of lines, a write each would cost more than the search.
	if c.Bool("json") {
		w := bufio.NewWriterSize(c.App.Writer, 64<<10)
		enc := json.NewEncoder(w)
		for _, m := range res {
			if err := enc.Encode(m); err != nil {
				return fmt.Errorf("write output: %w", err)
			}
		}
		if err := w.Flush(); err != nil {
			return fmt.Errorf("write output: %w", err)
		}
	} else {
		// The pattern's tokens are highlighted as a query's are; a blank
		// pattern (the zero Query) marks nothing.
		pattern, _ := query.Parse(opts.Pattern.Text)
		o, err := openOutput(c, repo, &pattern)
		if err != nil {
			return err
		}
		w := bufio.NewWriterSize(o.w, 64<<10)
		printPickaxe(w, o.paint, res)
		w.Flush()
		o.close()
	}
	if len(res) == 0 {
		return errNoResults
	}
	return nil
}

// historyProgress shows, on a terminal, the first listing of a long
// history's changes (git's own: about half a minute), which later queries
// read back in milliseconds.
func historyProgress(stderr io.Writer) func(done, total int) {
	f, ok := stderr.(*os.File)
	if !ok || !isatty.IsTerminal(f.Fd()) {
		return nil
	}
	return func(done, total int) {
		if total < 1000 || (done%500 != 0 && done != total) {
			return
		}
		fmt.Fprintf(stderr, "\rlisting the changes of %d first-parent commits (once): %d%%", total, done*100/total)
		if done == total {
			fmt.Fprint(stderr, "\r\x1b[K")
		}
	}
}

// implicit, when not empty, is the string of a log QUERY that names it
// (exactLogQuery), followed as with -S.
func pickaxeOptions(c *cli.Context, implicit string) (pickaxe.Options, error) {
	var o pickaxe.Options
	switch {
	case implicit != "":
	case c.IsSet("S") && c.IsSet("G"):
		return o, usageError{"-S and -G are exclusive: -S counts a string, -G greps the changed lines"}
	case c.Args().Present():
		return o, usageError{fmt.Sprintf("with -S or -G, log takes no QUERY (got %q): put the pattern after the flag", c.Args().First())}
	case c.IsSet("lang") || c.IsSet("kind") || c.IsSet("mode"):
		return o, usageError{"--lang, --kind and --mode select chunks of the semantic log; with -S or -G, use --path"}
	case c.Int("max-count") < 0:
		return o, usageError{"--max-count must be a positive number of commits"}
	}
	if implicit != "" {
		o.Pattern = pickaxe.Pattern{Text: implicit}
	} else if c.IsSet("S") {
		o.Pattern = pickaxe.Pattern{Text: c.String("S"), Regex: c.Bool("pickaxe-regex") && !c.Bool("fixed-strings")}
	} else {
		o.Pattern = pickaxe.Pattern{Text: c.String("G"), Regex: !c.Bool("fixed-strings")}
		o.Grep = true
	}
	o.IgnoreCase, o.Text = c.Bool("ignore-case"), c.Bool("text")
	if o.Pattern.Text == "" {
		return o, usageError{"the pattern of -S or -G is empty"}
	}
	// --path and --exclude filter paths as search's do.
	if f, err := query.NewPathFilter(c.String("path"), c.StringSlice("exclude")); err != nil {
		return o, usageError{err.Error()}
	} else if !f.Empty() {
		o.PathMatch = f.Match
	}
	o.Max = c.Int("max-count")
	if c.Bool("first") {
		o.Oldest, o.Max = true, 1
	}
	m, err := pickaxe.Compile(o.Pattern)
	if err != nil {
		if errors.Is(err, pickaxe.ErrEmptyPattern) {
			return o, usageError{err.Error()}
		}
		return o, usageError{fmt.Sprintf("%v (the syntax is RE2's; -F takes the pattern as a plain string)", err)}
	}
	o.Matcher = m
	return o, nil
}

// printPickaxe prints one block per commit, as git log --oneline with
// the files and the matching lines each added or removed:
//
//	1a2b3c4d5e  2024-01-01  Ann  Add the retry loop
//	    net/retry.go  0 → 2
//	      +   12  func RetryWithBackoff(ctx context.Context) error {
func printPickaxe(w io.Writer, p colorizer, res []pickaxe.CommitMatch) {
	for i, m := range res {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s  %s  %s  %s\n", p.paint(sgrCommit, m.Commit[:10]), m.Date.Format("2006-01-02"), m.Author, m.Subject)
		for _, f := range m.Files {
			counts := ""
			if f.OldCount != f.NewCount {
				counts = fmt.Sprintf("  %d → %d", f.OldCount, f.NewCount)
			}
			fmt.Fprintf(w, "    %s%s\n", p.paint(sgrPath, quotePath(f.Path)), counts)
			for _, l := range f.Removed {
				fmt.Fprintf(w, "      %s %5d  %s\n", p.paint(sgrDel, "-"), l.Number, p.highlight(expandTabs(l.Text)))
			}
			for _, l := range f.Added {
				fmt.Fprintf(w, "      %s %5d  %s\n", p.paint(sgrAdd, "+"), l.Number, p.highlight(expandTabs(l.Text)))
			}
		}
	}
}

func expandTabs(s string) string { return strings.ReplaceAll(s, "\t", "    ") }

// sinceIntroduced starts the timelines at the commit that introduced lit
// (the oldest commit -S lit lists): a method's class is older than the
// method, and its timeline before the name existed answers another
// question. The commit is said on stderr.
func sinceIntroduced(c *cli.Context, repo *gitindex.Repo, s settings, lit string, res *timeline.LogResult) error {
	opts, err := pickaxeOptions(c, lit)
	if err != nil {
		return err
	}
	opts.Oldest, opts.Max, opts.CommitsOnly = true, 1, true
	first, err := searchHistory(c, repo, s, res.Tip.Hash, opts)
	if err != nil || len(first) == 0 {
		return err
	}
	intro := first[0]
	if !c.Bool("json") {
		fmt.Fprintf(c.App.ErrWriter, "%s first appeared in %s (%s, %s)\n", lit, intro.Commit[:10], intro.Date.Format("2006-01-02"), intro.Subject)
	}
	kept := res.Timelines[:0]
	for _, t := range res.Timelines {
		var evs []timeline.Event
		for _, e := range t.Events {
			if !e.Date.Before(intro.Date) {
				evs = append(evs, e)
			}
		}
		if len(evs) > 0 {
			t.Events = evs
			kept = append(kept, t)
		}
	}
	res.Timelines = kept
	return nil
}

// changeTables is what a history index runs after the indexing: the
// pickaxe's table of a tip's first-parent changes and of the commits of
// the branches merged into it, with git's patches.
func changeTables(repo *gitindex.Repo) func(context.Context, plumbing.Hash) error {
	return func(ctx context.Context, tip plumbing.Hash) error {
		if err := pickaxe.BuildHistory(ctx, repo, tip, nil); err != nil {
			return err
		}
		return pickaxe.BuildSide(ctx, repo, tip)
	}
}

// searchHistory runs a pickaxe search of tip's first-parent history, the
// blobs the exact index rules out passed over.
func searchHistory(c *cli.Context, repo *gitindex.Repo, s settings, tip plumbing.Hash, opts pickaxe.Options) ([]pickaxe.CommitMatch, error) {
	hist, err := pickaxe.History(c.Context, repo, tip, historyProgress(c.App.ErrWriter))
	if err != nil {
		return nil, err
	}
	model := ""
	if e := s.embedder(); e != nil {
		model = e.ID()
	}
	cand, release := pickaxe.IndexCandidates(repo.IndexDir, model, opts)
	defer release()
	opts.Candidates = cand
	res, _, err := pickaxe.Search(c.Context, repo, hist, opts)
	return res, err
}
