//go:build !nocluster

package main

import (
	"encoding/json"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/bcindex/bcindex/cluster"
	"github.com/bcindex/bcindex/query"
	"github.com/bcindex/bcindex/search"
)

// runRemoteSearch runs the query on the cluster with the local embedder
// (the model the repositories were published with) and prints hits as
// local search does, each with its repository.
func runRemoteSearch(c *cli.Context, q *query.Query) error {
	for _, f := range []string{"worktree", "only-in", "not-in", "no-index", "all-branches", "tags", "group-by"} {
		if c.IsSet(f) {
			return usageError{"--" + f + " searches the local index; it does not combine with --remote"}
		}
	}
	if m := c.String("mode"); m != search.ModeHybrid {
		return usageError{"--remote runs the cluster's hybrid query; --mode does not combine with it"}
	}
	repo, s, rs, err := openWithRemote(c)
	if err != nil {
		return err
	}
	// Of several summaries of a hit, the configured chat model's.
	prefer, err := enhanceModel(repo)
	if err != nil {
		return err
	}
	cl, err := cluster.Open(c.Context, rs.url)
	if err != nil {
		return err
	}
	offset := c.Int("offset")
	if offset < 0 {
		return usageError{"--offset must be 0 or more"}
	}
	opts := cluster.SearchOptions{Parsed: q, K: offset + c.Int("k"), Repo: c.String("repo"),
		Path: c.String("path"), Exclude: c.StringSlice("exclude"), Lang: c.String("lang"), Kind: c.String("kind"), MaxLines: c.Int("max-lines"), Embedder: s.embedder(),
		NoSummaries: c.Bool("no-summaries"), SummaryModel: prefer}
	// --ref names published refs, globs allowed; none means every one.
	opts.Refs = refSelection(c).Patterns
	hits, err := cluster.Search(c.Context, cl, opts)
	if err != nil {
		return err
	}
	hits = hits[min(offset, len(hits)):]
	if w := cl.Warning(); w != "" {
		fmt.Fprintln(c.App.ErrWriter, "warning:", w)
	}
	if c.Bool("json") {
		enc := json.NewEncoder(c.App.Writer)
		for _, h := range hits {
			if err := enc.Encode(h); err != nil {
				return err
			}
		}
	} else {
		shown := make([]search.Hit, len(hits))
		for i, h := range hits {
			shown[i] = h.Hit
			shown[i].Path = h.Repo + "@" + h.Ref + ":" + h.Path
		}
		printHits(c.App.Writer, newColorizer(wantColor("auto", c.App.Writer), q), shown)
	}
	if len(hits) == 0 {
		return errNoResults
	}
	return nil
}
