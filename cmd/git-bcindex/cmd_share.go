package main

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/share"
)

func pushCommand() *cli.Command {
	return &cli.Command{
		Name:      "push",
		Usage:     "share the index (chunk metadata and vectors) with REMOTE under refs/bcindex/<model>, and generated summaries under refs/bcindex-summaries/",
		ArgsUsage: "[REMOTE]",
		Description: "Adds every indexed blob the shared index lacks to refs/bcindex/<model> and pushes\n" +
			"it; git sends only objects the remote does not have. The summaries the model named by\n" +
			"bcindex.enhance.model wrote (git bcindex enhance) go beside it, marked generated.",
		Flags: []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print the summary as JSON"}},
		Action: func(c *cli.Context) error {
			return runShare(c, func(repo *gitindex.Repo, remote, model string, dim int) (*share.Summary, error) {
				return share.Push(c.Context, repo, remote, model)
			})
		},
	}
}

func fetchCommand() *cli.Command {
	return &cli.Command{
		Name:      "fetch",
		Usage:     "fetch the index REMOTE shares, verify it against local blobs, and index HEAD with it",
		ArgsUsage: "[REMOTE]",
		Description: "Entries for blobs this repository does not have, or whose chunk hashes do not\n" +
			"match the blob's content, are refused. HEAD is then indexed: the blobs the\n" +
			"fetched index covers are neither parsed nor embedded again, so HEAD is fully\n" +
			"indexed (chunks, lexical data, vectors) and the next `index` has nothing to do.\n" +
			"With bcindex.enhance.model set, the summaries REMOTE shares by that model are fetched\n" +
			"too (checksummed, marked generated) and search ranks with them; no model is asked.",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print the summary as JSON"},
			&cli.DurationFlag{Name: "wait", Value: 10 * time.Minute, Usage: "how long to wait for a running indexer"},
		},
		Action: func(c *cli.Context) error {
			return runShare(c, func(repo *gitindex.Repo, remote, model string, dim int) (*share.Summary, error) {
				sum, err := share.Fetch(c.Context, repo, remote, model, dim, c.Duration("wait"))
				if err != nil {
					return sum, err
				}
				return sum, indexAfterFetch(c, repo, sum)
			})
		},
	}
}

func runShare(c *cli.Context, do func(repo *gitindex.Repo, remote, model string, dim int) (*share.Summary, error)) error {
	if c.Args().Len() > 1 {
		return usageError{fmt.Sprintf("usage: git bcindex %s [REMOTE]", c.Command.Name)}
	}
	remote := c.Args().First()
	if remote == "" {
		remote = "origin"
	}
	repo, s, err := openWithSettings(c)
	if err != nil {
		return err
	}
	emb := s.embedder()
	if emb == nil {
		return usageError{"vectors are off (git config bcindex.vectors false): there is nothing worth sharing"}
	}
	sum, err := do(repo, remote, emb.ID(), emb.Dim())
	var ss *share.SummaryShare
	if err == nil {
		ss, err = shareSummaries(c, repo, remote, emb)
	}
	if sum != nil {
		printShare(c.App.Writer, c.Command.Name, remote, sum, ss, c.Bool("json"))
	}
	return err
}

func printShare(w io.Writer, verb, remote string, s *share.Summary, ss *share.SummaryShare, asJSON bool) {
	if asJSON {
		b, _ := json.Marshal(struct {
			*share.Summary
			Summaries *share.SummaryShare `json:"summaries,omitempty"`
		}{s, ss})
		fmt.Fprintln(w, string(b))
		return
	}
	if ss != nil {
		defer printSummaryShare(w, verb, ss)
	}
	short := s.Commit
	if len(short) > 12 {
		short = short[:12]
	}
	if verb == "push" {
		fmt.Fprintf(w, "pushed %s (%s) to %s: %d blobs shared, %d new\n", s.Ref, short, remote, s.Entries, s.Written)
		return
	}
	fmt.Fprintf(w, "fetched %s (%s) from %s: %d blobs shared, %d imported (%d vectors), %d already indexed, %d not in this repository\n",
		s.Ref, short, remote, s.Entries, s.Imported, s.Vectors, s.Present, s.Unknown)
	if len(s.Rejected) > 0 {
		fmt.Fprintf(w, "  refused: %s\n", rejectedList(s.Rejected))
	}
}

// rejectedList names the reasons entries were refused, with their counts.
func rejectedList(rejected map[string]int) string {
	var parts []string
	for why, n := range rejected {
		parts = append(parts, fmt.Sprintf("%s %d", why, n))
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}

// indexAfterFetch indexes HEAD with the chunk lists a fetch verified, so
// that they are not parsed, nor their vectors computed, again.
func indexAfterFetch(c *cli.Context, repo *gitindex.Repo, fetched *share.Summary) error {
	if _, err := repo.Resolve("HEAD"); err != nil {
		return nil // no commit yet: nothing to index
	}
	s, err := readSettings(repo)
	if err != nil {
		return err
	}
	opts := s.indexOptions()
	opts.Shared = fetched.Verified
	opts.SharedVectors = fetched.SharedVectors
	if !c.Bool("json") {
		opts.Progress = newProgress(c.App.ErrWriter)
	}
	sum, err := indexer.NewIndexer(repo, opts).Index(c.Context, []string{"HEAD"}, c.Duration("wait"))
	if err != nil {
		return fmt.Errorf("index HEAD with the fetched index: %w", err)
	}
	if !c.Bool("json") {
		fmt.Fprintf(c.App.ErrWriter, "indexed HEAD: %s, %d vectors computed, %d taken from the shared index\n", count(sum.BlobsNew, "new blob"), sum.Embedded, sum.VectorsReused)
	}
	return nil
}
