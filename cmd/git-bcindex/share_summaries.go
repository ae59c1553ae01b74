package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/enhance"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
)

// shareSummaries is push's and fetch's second step: the summaries the
// chat model named by bcindex.enhance.model wrote travel beside the index,
// under refs/bcindex-summaries/ (indexer/sharesummaries.go). A fetch then
// rewrites the summary index search ranks with. Nothing happens without a
// configured model, or when neither side has summaries by it.
func shareSummaries(c *cli.Context, repo *gitindex.Repo, remote string, emb embed.Embedder) (*indexer.SummaryShare, error) {
	sub, err := enhanceConfig(repo)
	if err != nil {
		return nil, err
	}
	model := strings.TrimSpace(sub.Option("model"))
	if model == "" {
		return nil, nil
	}
	wait := 2 * time.Minute
	if c.IsSet("wait") {
		wait = c.Duration("wait")
	}
	if c.Command.Name == "push" {
		return indexer.PushSummaries(c.Context, repo, remote, model, enhance.PromptVersion, wait)
	}
	ss, err := indexer.FetchSummaries(c.Context, repo, remote, model, enhance.PromptVersion, wait)
	if err != nil || ss == nil {
		return ss, err
	}
	_, err = enhance.Reindex(c.Context, enhance.Store{IndexDir: repo.IndexDir, LockWait: wait}, model, emb)
	return ss, err
}

// printSummaryShare is printShare's line for the summaries.
func printSummaryShare(w io.Writer, verb string, s *indexer.SummaryShare) {
	if verb == "push" {
		fmt.Fprintf(w, "pushed %s: %d generated summaries shared, %d new\n", s.Ref, s.Entries, s.Written)
		return
	}
	fmt.Fprintf(w, "fetched %s: %d generated summaries shared, %d imported, %d already here\n", s.Ref, s.Entries, s.Imported, s.Present)
	if len(s.Rejected) > 0 {
		fmt.Fprintf(w, "  refused: %s\n", rejectedList(s.Rejected))
	}
}
