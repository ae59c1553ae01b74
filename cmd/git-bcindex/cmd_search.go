package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/urfave/cli/v2"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/search"
	"github.com/bcindex/bcindex/store"
)

func searchCommand() *cli.Command {
	return &cli.Command{
		Name:      "search",
		Usage:     "search revisions (default HEAD) by symbol, keyword and meaning",
		ArgsUsage: "QUERY",
		Flags: flags(refFlags(), []cli.Flag{
			&cli.StringFlag{Name: "group-by", Usage: "`ref`: print the hits of each searched revision in a section of its own"},
			&cli.IntFlag{Name: "k", Aliases: []string{"n"}, Value: 10, Usage: "number of results"},
			&cli.IntFlag{Name: "offset", Usage: "skip the first `N` results, to page past them (with -k)"},
			&cli.BoolFlag{Name: "json", Usage: "print JSON Lines, one hit per line"},
			&cli.StringFlag{Name: "mode", Value: search.ModeHybrid, Usage: "hybrid, symbol, text or vector"},
			&cli.BoolFlag{Name: "no-index", Usage: "do not index missing blobs first; search what is indexed"},
			&cli.BoolFlag{Name: "worktree", Aliases: []string{"w"}, Usage: "search HEAD with uncommitted changes (modified and untracked files)"},
			&cli.StringSliceFlag{Name: "only-in", Usage: "only chunks whose content is in `REV` too (repeatable; --ref defaults to the first)"},
			&cli.StringSliceFlag{Name: "not-in", Usage: "only chunks whose content is not in `REV` (repeatable)"},
			&cli.BoolFlag{Name: "no-summaries", Usage: "rank and show without the summaries `git bcindex enhance` wrote, to compare"},
			&cli.BoolFlag{Name: "files", Usage: "rank files: -k files, each with its best chunks and their lines (JSON: one file a line)"},
		}, filterFlags(), snippetFlags(), listFlags(), displayFlags(), remoteFlags()),
		Action: runSearch,
	}
}

func runSearch(c *cli.Context) error {
	q, err := queryArgs(c, 10000)
	if err != nil {
		return err
	}
	if c.Bool("remote") {
		return runRemoteSearch(c, q)
	}
	if c.IsSet("repo") {
		return usageError{"--repo selects repositories in the cluster: use it with --remote"}
	}
	offset := c.Int("offset")
	if offset < 0 || offset+c.Int("k") > 10000 {
		return usageError{"--offset must be 0 or more, and --offset plus -k at most 10000"}
	}
	repo, s, err := openWithSettings(c)
	if err != nil {
		return err
	}
	asJSON := c.Bool("json")
	byRef, err := groupByRef(c)
	if err != nil {
		return err
	}
	opts := search.Options{
		Parsed: q, Refs: refSelection(c), K: offset + c.Int("k"), Mode: c.String("mode"),
		Path: c.String("path"), Exclude: c.StringSlice("exclude"), Lang: c.String("lang"), Kind: c.String("kind"),
		Context: c.Int("context"), MaxLines: c.Int("max-lines"), Worktree: c.Bool("worktree"),
		Embedder: s.embedder(),
		OnlyIn:   c.StringSlice("only-in"), NotIn: c.StringSlice("not-in"),
		NoSummaries: c.Bool("no-summaries"), Files: c.Bool("files"),
	}
	if opts.Files && (listing(c) || byRef || offset > 0) {
		return usageError{"--files does not combine with -l, --vimgrep, --group-by or --offset"}
	}
	if opts.Mode != search.ModeSymbol && opts.Mode != search.ModeText {
		embed.Warm(opts.Embedder) // the model's tables load while the revision resolves
	}
	what := revLabel(opts.Refs)
	if opts.Refs.Empty() && len(opts.OnlyIn) == 0 {
		opts.Rev = "HEAD"
	}
	if listing(c) {
		opts.Context, opts.MaxLines = 0, 0 // every line of the chunk, for --vimgrep
	}
	iopts := s.indexOptions()
	iopts.Embedder = opts.Embedder
	if !asJSON {
		iopts.Progress = newProgress(c.App.ErrWriter)
	}
	p, err := search.NewPlan(repo, opts)
	if err != nil {
		return err
	}
	v, sum, err := indexer.Ensure(c.Context, repo, iopts, indexer.Request{Want: p.Want, Parts: indexer.All, NoIndex: c.Bool("no-index"), LockWait: 2 * time.Minute})
	if err != nil {
		return err
	}
	defer v.Close()
	if sum != nil && sum.Repaired != "" {
		fmt.Fprintf(c.App.ErrWriter, "warning: %s\n", sum.Repaired)
	}
	if sum != nil && sum.BlobsNew > 0 && !asJSON {
		fmt.Fprintf(c.App.ErrWriter, "indexed %s of %s in %s\n", count(sum.BlobsNew, "new blob"), what, sum.Elapsed.Round(time.Millisecond))
	}
	res, err := search.NewSearcher(v, p).Search(c.Context, q, opts)
	if err != nil {
		return err
	}
	res.Hits = res.Hits[min(offset, len(res.Hits)):]
	for _, d := range res.Damaged {
		hint := "run `git bcindex index` to rebuild it"
		if d == store.SummaryIndexFile {
			d, hint = "the summary index "+d+" is damaged", "run `git bcindex enhance` to write it anew"
		}
		fmt.Fprintf(c.App.ErrWriter, "warning: %s; left out (%s)\n", d, hint)
	}
	if res.Pending > 0 {
		fmt.Fprintf(c.App.ErrWriter, "warning: %d blobs of %s are not indexed yet; results may miss them\n", res.Pending, what)
	}
	if res.NoExactName && len(res.Hits) > 0 && !anySnippetHas(res.Hits, q.Text) {
		fmt.Fprintf(c.App.ErrWriter, "no exact match for %s; related code:\n", q.Text)
	}
	if res.NoVectors > 0 {
		fmt.Fprintf(c.App.ErrWriter, "warning: %d chunks have no vectors for model %s yet, so the vector search misses them; `git bcindex index` computes them\n", res.NoVectors, opts.Embedder.ID())
	}
	switch {
	case opts.Files:
		if err := printFileHits(c, repo, q, res.Files, asJSON); err != nil {
			return err
		}
	case byRef:
		o, err := openOutput(c, repo, q)
		if err != nil {
			return err
		}
		err = printByRef(o.w, o.paint, res, asJSON)
		o.close()
		if err != nil {
			return err
		}
	case asJSON:
		enc := json.NewEncoder(c.App.Writer)
		for _, h := range res.Hits {
			if err := enc.Encode(h); err != nil {
				return err
			}
		}
	default:
		if err := printResults(c, repo, q, res.Hits, len(res.Revisions) > 1); err != nil {
			return err
		}
	}
	if len(res.Hits) == 0 {
		return errNoResults
	}
	return nil
}

// printHits prints each hit's header line, its generated summary if it
// has one, and its snippet.
func printHits(w io.Writer, p colorizer, hits []search.Hit) {
	for i, h := range hits {
		if i > 0 {
			fmt.Fprintln(w)
		}
		crumbs := append([]string(nil), h.Breadcrumb...)
		if len(crumbs) > 0 && crumbs[0] == h.Path {
			crumbs[0] = quotePath(h.Path)
		}
		fmt.Fprintf(w, "%s%s  %s  %s\n", p.path(h.Path, ":"), p.paint(sgrLine, fmt.Sprintf("%d-%d", h.StartLine, h.EndLine)),
			p.paint(sgrSep, strings.Join(crumbs, " › ")), p.paint(sgrDim, fmt.Sprintf("%s %.4f", h.Kind, h.Score)))
		if h.GeneratedSummary != nil {
			printGenerated(w, p, h.GeneratedSummary)
		}
		lines := strings.Split(strings.TrimRight(h.Snippet, "\n"), "\n")
		for j, l := range lines {
			n := h.SnippetStart + j
			mark := " "
			if n >= h.StartLine && n <= h.EndLine {
				mark = "│"
			}
			fmt.Fprintf(w, "%s %s %s\n", p.paint(sgrLine, fmt.Sprintf("%5d", n)), p.paint(sgrDim, mark), p.highlight(l))
		}
		if last := h.SnippetStart + len(lines) - 1; last < h.EndLine {
			fmt.Fprintf(w, "%s\n", p.paint(sgrDim, fmt.Sprintf("        … %d more lines", h.EndLine-last)))
		}
		if len(h.AlsoIn) > 0 {
			also := make([]string, len(h.AlsoIn))
			for i, a := range h.AlsoIn {
				also[i] = quotePath(a)
			}
			fmt.Fprintf(w, "%s\n", p.paint(sgrDim, "        also in "+strings.Join(also, ", ")))
		}
	}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

// remoteFlags select search --remote: every repository published to the
// cluster in bcindex.remote.url.
func remoteFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "remote", Usage: "search every repository published to the cluster (bcindex.remote.url)"},
		&cli.StringFlag{Name: "repo", Usage: "with --remote: only repositories matching `GLOB` (e.g. 'github.com/acme/*')"},
	}
}

// anySnippetHas reports whether a hit's snippet holds s: an identifier
// used (called, assigned) though no chunk is named by it is found.
func anySnippetHas(hits []search.Hit, s string) bool {
	for _, h := range hits {
		if strings.Contains(h.Snippet, s) {
			return true
		}
	}
	return false
}
