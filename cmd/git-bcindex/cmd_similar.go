package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/search"
	"github.com/bcindex/bcindex/similar"
)

func similarCommand() *cli.Command {
	return &cli.Command{
		Name:      "similar",
		Usage:     "code like what a commit or range changed, that the change did not touch",
		ArgsUsage: "REV | A..B",
		Description: "The chunks REV (against its first parent) or A..B added or changed become\n" +
			"queries, by vector and by text, against --ref (default the range's end).",
		Flags: flags([]cli.Flag{
			&cli.StringFlag{Name: "ref", Aliases: []string{"r"}, Usage: "revision to search (default: the change's end)"},
			&cli.IntFlag{Name: "k", Aliases: []string{"n"}, Value: 10, Usage: "number of results"},
			&cli.BoolFlag{Name: "json", Usage: "print JSON Lines, one hit per line, with the changed chunk it is like"},
			&cli.BoolFlag{Name: "no-index", Usage: "do not index missing blobs first"},
		}, filterFlags(), snippetFlags(), displayFlags()),
		Action: runSimilar,
	}
}

func runSimilar(c *cli.Context) error {
	if c.Args().Len() != 1 {
		return usageError{"usage: git bcindex similar [options] REV|A..B"}
	}
	if c.Int("k") < 1 || c.Int("k") > 10000 {
		return usageError{"-k must be between 1 and 10000"}
	}
	repo, s, err := openWithSettings(c)
	if err != nil {
		return err
	}
	asJSON := c.Bool("json")
	opts := search.Options{
		Rev: c.String("ref"), K: c.Int("k"), Path: c.String("path"), Exclude: c.StringSlice("exclude"), Lang: c.String("lang"), Kind: c.String("kind"),
		Context: c.Int("context"), MaxLines: c.Int("max-lines"),
		Embedder: s.embedder(),
	}
	iopts := s.indexOptions()
	iopts.Embedder = opts.Embedder
	if !asJSON {
		iopts.Progress = newProgress(c.App.ErrWriter)
	}
	want, err := similar.Plan(repo, c.Args().First(), opts)
	if err != nil {
		return err
	}
	v, _, err := indexer.Ensure(c.Context, repo, iopts, indexer.Request{Want: want, Parts: indexer.All, NoIndex: c.Bool("no-index"), LockWait: 2 * time.Minute})
	if err != nil {
		return err
	}
	defer v.Close()
	res, err := similar.Similar(c.Context, v, c.Args().First(), opts)
	if err != nil {
		return err
	}
	if res.Pending > 0 {
		fmt.Fprintf(c.App.ErrWriter, "warning: %d blobs are not indexed yet; results may miss them\n", res.Pending)
	}
	if asJSON {
		enc := json.NewEncoder(c.App.Writer)
		for _, h := range res.Hits {
			if err := enc.Encode(h); err != nil {
				return fmt.Errorf("write output: %w", err)
			}
		}
	} else {
		o, err := openOutput(c, repo, nil)
		if err != nil {
			return err
		}
		printSimilar(o.w, o.paint, c.App.ErrWriter, res)
		o.close()
	}
	if len(res.Hits) == 0 {
		return errNoResults
	}
	return nil
}

func printSimilar(w io.Writer, p colorizer, stderr io.Writer, res *similar.Result) {
	if len(res.Changed) == 0 {
		fmt.Fprintln(stderr, "the change adds or changes no indexed chunk")
		return
	}
	hits := make([]search.Hit, len(res.Hits))
	for i, h := range res.Hits {
		hits[i] = h.Hit
		// The breadcrumb's last element says which changed chunk this is like.
		like := h.Like.Name
		if like == "" {
			like = h.Like.Kind
		}
		hits[i].Breadcrumb = append(append([]string(nil), h.Breadcrumb...), "like "+quotePath(h.Like.Path)+" "+like)
	}
	var names []string
	for _, ch := range res.Changed {
		// A chunk without a name (a file's own chunk, a window of lines)
		// is named by its kind and place.
		name := ch.Name
		if name == "" {
			name = fmt.Sprintf("%s %s:%d-%d", ch.Kind, quotePath(ch.Path), ch.StartLine, ch.EndLine)
		}
		names = append(names, name)
	}
	fmt.Fprintf(stderr, "%s (%s); similar code at %s:\n", count(len(res.Changed), "changed chunk"), strings.Join(names, ", "), res.Target.Rev)
	printHits(w, p, hits)
}
