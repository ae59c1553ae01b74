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
	"github.com/bcindex/bcindex/share"
)

// shareSummaries is push's and fetch's second step: the summaries the
// chat model named by bcindex.enhance.model wrote travel beside the index,
// under refs/bcindex-summaries/ (indexer/sharesummaries.go). A fetch then
// rewrites the summary index search ranks with. Nothing happens without a
// configured model, or when neither side has summaries by it.
func shareSummaries(c *cli.Context, repo *gitindex.Repo, remote string, emb embed.Embedder) (*share.SummaryShare, error) {
	model, err := enhanceModel(repo)
	if err != nil || model == "" {
		return nil, err
	}
	if c.Command.Name == "push" {
		return share.PushSummaries(c.Context, repo, remote, model, enhance.PromptVersion, lockWait(c))
	}
	ss, err := share.FetchSummaries(c.Context, repo, remote, model, enhance.PromptVersion, lockWait(c))
	if err != nil || ss == nil {
		return ss, err
	}
	return ss, reindexSummaries(c, repo, emb)
}

// reindexSummaries rewrites the summary index search ranks with from the
// stored summaries of the model bcindex.enhance.model names, if any.
func reindexSummaries(c *cli.Context, repo *gitindex.Repo, emb embed.Embedder) error {
	model, err := enhanceModel(repo)
	if err != nil || model == "" {
		return err
	}
	_, err = enhance.Reindex(c.Context, enhance.Store{IndexDir: repo.IndexDir, LockWait: lockWait(c)}, model, emb)
	return err
}

// enhanceModel is bcindex.enhance.model, "" when unset.
func enhanceModel(repo *gitindex.Repo) (string, error) {
	sub, err := enhanceConfig(repo)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(sub.Option("model")), nil
}

// lockWait is --wait where the command has it, else two minutes.
func lockWait(c *cli.Context) time.Duration {
	if c.IsSet("wait") {
		return c.Duration("wait")
	}
	return 2 * time.Minute
}

// printSummaryShare is printShare's line for the summaries.
func printSummaryShare(w io.Writer, verb string, s *share.SummaryShare) {
	if verb == "push" {
		fmt.Fprintf(w, "pushed %s: %d generated summaries shared, %d new\n", s.Ref, s.Entries, s.Written)
		return
	}
	fmt.Fprintf(w, "fetched %s: %d generated summaries shared, %d imported, %d already here\n", s.Ref, s.Entries, s.Imported, s.Present)
	if len(s.Rejected) > 0 {
		fmt.Fprintf(w, "  refused: %s\n", rejectedList(s.Rejected))
	}
}
