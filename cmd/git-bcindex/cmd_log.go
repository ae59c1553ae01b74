package main

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/search"
	"github.com/bcindex/bcindex/store"
	"github.com/bcindex/bcindex/timeline"
)

func logCommand() *cli.Command {
	return &cli.Command{
		Name:      "log",
		Usage:     "timeline of the code matching QUERY across the indexed history: when it appeared, changed, moved, vanished; with -S or -G, git log's pickaxe",
		ArgsUsage: "QUERY | -S STRING | -G REGEX [git log options] [REVISIONS] [-- PATHSPEC]",
		Description: "Searches every indexed first-parent commit of --ref, so code deleted since is\n" +
			"found too. When --ref itself is not indexed yet, its last --history commits are\n" +
			"indexed first (only the blobs not seen before cost anything); index more with\n" +
			"`git bcindex index --history N`.\n\n" +
			"With -S or -G, log is `git log -S/-G`: the same arguments (--oneline, --format,\n" +
			"-p, --stat, --name-only, -n, --since, --until, --author, --all, revision\n" +
			"ranges, --first-parent, --pickaxe-regex, --pickaxe-all, -i, -- PATHSPEC and\n" +
			"its magic), the same commits, bytes and exit code. The index narrows the\n" +
			"commits, git prints them; what the index cannot narrow (other options, a\n" +
			"regex it cannot plan, textconv drivers) git answers alone.\n" +
			"With one of log's own options (--json, --first, --path, --exclude with\n" +
			"--json, --ref), -S/-G prints bcindex's view instead: the first-parent commits\n" +
			"of --ref where a file's number of matches changed, the commits `git log\n" +
			"--first-parent --no-renames -S/-G` lists, with the matching lines each added\n" +
			"or removed; it exits 1 when none does. --first answers \"when did this\n" +
			"appear\". A QUERY that is a code-shaped name (ErrConflict, parse_config) or a\n" +
			"string in double quotes starts its timelines at the commit that introduced\n" +
			"it, which the exact index finds as -S --first does.",
		Flags: flags([]cli.Flag{
			&cli.StringFlag{Name: "ref", Aliases: []string{"r"}, Value: "HEAD", Usage: "whose first-parent history to search"},
			&cli.IntFlag{Name: "k", Aliases: []string{"n"}, Value: 5, Usage: "number of chunks to follow"},
			&cli.BoolFlag{Name: "json", Usage: "print JSON Lines, one chunk and its events per line"},
			&cli.StringFlag{Name: "mode", Value: search.ModeHybrid, Usage: "hybrid, symbol, text or vector"},
			&cli.IntFlag{Name: "history", Value: 100, Usage: "when --ref is not indexed, first index its last `N` first-parent commits"},
			&cli.BoolFlag{Name: "no-index", Usage: "do not index anything first"},
		}, filterFlags(), displayFlags(), pickaxeFlags()),
		Action: runLog,
	}
}

func runLog(c *cli.Context) error {
	if pickaxeMode(c) {
		return runPickaxe(c)
	}
	q, err := queryArgs(c, 1000)
	if err != nil {
		return err
	}
	repo, s, err := openWithSettings(c)
	if err != nil {
		return err
	}
	if !c.Bool("no-index") {
		if err := indexLogHistory(c, repo, s); err != nil {
			return err
		}
	}
	res, err := timeline.Log(c.Context, repo, search.Options{
		Parsed: q, Rev: c.String("ref"), K: c.Int("k"), Mode: c.String("mode"),
		Path: c.String("path"), Exclude: c.StringSlice("exclude"), Lang: c.String("lang"), Kind: c.String("kind"), Embedder: s.embedder(),
	})
	if err != nil {
		return err
	}
	if lit, ok := exactLogQuery(c, q); ok {
		if err := sinceIntroduced(c, repo, s, lit, res); err != nil {
			return err
		}
	}
	if c.Bool("json") {
		enc := json.NewEncoder(c.App.Writer)
		for _, t := range res.Timelines {
			if err := enc.Encode(t); err != nil {
				return fmt.Errorf("write output: %w", err)
			}
		}
	} else {
		o, err := openOutput(c, repo, q)
		if err != nil {
			return err
		}
		printTimelines(o.w, o.paint, res)
		o.close()
	}
	if len(res.Timelines) == 0 {
		return errNoResults
	}
	return nil
}

// indexLogHistory indexes the last --history first-parent commits of --ref
// when --ref itself is not indexed, as search indexes its revision first.
func indexLogHistory(c *cli.Context, repo *gitindex.Repo, s settings) error {
	tip, err := repo.Resolve(c.String("ref"))
	if err != nil {
		return err
	}
	if _, err := repo.CachedListing(tip.Tree); err == nil {
		return nil // indexed: log searches whatever history is
	}
	n := c.Int("history")
	if n < 1 {
		return usageError{"--history must be a positive number of commits"}
	}
	opts := s.indexOptions()
	opts.ChangeTables = changeTables(repo)
	asJSON := c.Bool("json")
	if !asJSON {
		opts.Progress = newProgress(c.App.ErrWriter)
	}
	v, sum, err := indexer.Ensure(c.Context, repo, opts, indexer.Request{
		Want: store.Want{Commits: []gitindex.Commit{tip}}, Parts: indexer.All, LockWait: 2 * time.Minute,
		History: &gitindex.HistoryOptions{Revs: []string{tip.Hash.String()}, Max: n},
	})
	if err != nil {
		return err
	}
	v.Close() // the timeline reads the history's listings
	if sum.BlobsNew > 0 && !asJSON {
		fmt.Fprintf(c.App.ErrWriter, "indexed %s of the last %s of %s in %s\n", count(sum.BlobsNew, "new blob"), count(len(sum.Commits), "commit"), c.String("ref"), sum.Elapsed.Round(time.Millisecond))
	}
	return nil
}

// printTimelines prints one block per chunk, one line per event:
//
//	net/retry.go › RetryWithBackoff (function, gone)
//	  2024-01-01  1a2b3c4d  added    net/retry.go:5-18  Ann
func printTimelines(w io.Writer, p colorizer, res *timeline.LogResult) {
	for i, t := range res.Timelines {
		if i > 0 {
			fmt.Fprintln(w)
		}
		state := "present"
		if !t.Present {
			state = "gone"
		}
		fmt.Fprintf(w, "%s %s %s (%s, %s)\n", p.paint(sgrPath, quotePath(t.Path)), p.paint(sgrSep, "›"), p.highlight(t.Name), t.Kind, state)
		for _, e := range t.Events {
			where := fmt.Sprintf("%s:%d-%d", quotePath(e.Path), e.StartLine, e.EndLine)
			if e.Type == timeline.EventDeleted {
				where = quotePath(e.Path)
			}
			from := ""
			if e.Type == timeline.EventRenamed {
				switch {
				case e.FromPath != e.Path && e.FromName != e.Name:
					from = fmt.Sprintf(" (was %s in %s)", e.FromName, quotePath(e.FromPath))
				case e.FromPath != e.Path:
					from = " (from " + quotePath(e.FromPath) + ")"
				default:
					from = " (was " + e.FromName + ")"
				}
			}
			fmt.Fprintf(w, "  %s  %s  %s %s%s  %s\n", e.Date.Format("2006-01-02"), p.paint(sgrCommit, e.Commit[:10]),
				p.paint(eventColor(e.Type), fmt.Sprintf("%-8s", e.Type)), where, from, e.Author)
		}
	}
}

// historyOptions reads index's --history, --since and --all-branches; ok is
// false when none is given.
func historyOptions(c *cli.Context, revs []string) (h gitindex.HistoryOptions, ok bool, err error) {
	if !c.IsSet("history") && !c.IsSet("since") && !c.Bool("all-branches") {
		return h, false, nil
	}
	h = gitindex.HistoryOptions{Revs: revs, AllBranches: c.Bool("all-branches"), Max: c.Int("history")}
	if h.Max < 0 {
		return h, false, usageError{"--history must be a positive number of commits"}
	}
	if v := c.String("since"); v != "" {
		t, err := time.ParseInLocation("2006-01-02", v, time.Local)
		if err != nil {
			if t, err = time.Parse(time.RFC3339, v); err != nil {
				return h, false, usageError{fmt.Sprintf("--since %q: want a date such as 2024-01-01", v)}
			}
		}
		h.Since = t
	}
	return h, true, nil
}

// eventColor paints events as git paints a diff: additions green, deletions red.
func eventColor(t string) string {
	switch t {
	case timeline.EventAdded, timeline.EventExisted:
		return sgrAdd
	case timeline.EventDeleted:
		return sgrDel
	}
	return sgrCommit
}
