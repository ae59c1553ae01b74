package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/store"
	"github.com/bcindex/bcindex/store/storewrite"
)

func indexCommand() *cli.Command {
	return &cli.Command{
		Name:      "index",
		Usage:     "index revisions (default HEAD); only blobs not indexed yet are processed",
		ArgsUsage: "[REV...]",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print the summary as JSON"},
			&cli.BoolFlag{Name: "rebuild", Usage: "delete the index and build it again"},
			&cli.IntFlag{Name: "checkpoint", Value: 4000, Usage: "publish what is done every `N` blobs (and every 64 MB), so an interrupted run loses little"},
			&cli.DurationFlag{Name: "wait", Value: 10 * time.Minute, Usage: "how long to wait for a running indexer"},
			&cli.IntFlag{Name: "history", Usage: "also index the last `N` first-parent commits of each REV"},
			&cli.StringFlag{Name: "since", Usage: "also index first-parent history committed since `DATE` (2024-01-01)"},
			&cli.BoolFlag{Name: "all-branches", Usage: "index the first-parent history of every local branch (limited by --history, --since)"},
		},
		Action: func(c *cli.Context) error {
			repo, err := openRepo(c)
			if err != nil {
				return err
			}
			revs := c.Args().Slice()
			if len(revs) == 0 {
				revs = []string{"HEAD"}
			}
			if c.Bool("rebuild") {
				if err := removeIndex(c, repo); err != nil {
					return err
				}
			}
			s, err := readSettings(repo)
			if err != nil {
				return err
			}
			opts := s.indexOptions()
			embed.Warm(opts.Embedder) // the model's tables load while the tree is read
			opts.CheckpointBlobs = c.Int("checkpoint")
			if !c.Bool("json") {
				opts.Progress = newProgress(c.App.ErrWriter)
			}
			var sum *indexer.Summary
			if h, ok, herr := historyOptions(c, revs); herr != nil {
				return herr
			} else if ok {
				// A history index takes minutes: its progress goes to
				// stderr piped too, and with --json (the summary is stdout's).
				hp := newHistoryProgress(c.App.ErrWriter)
				opts.Progress = hp
				opts.ChangeTables = changeTables(repo)
				sum, err = indexer.NewIndexer(repo, opts).IndexHistory(c.Context, h, c.Duration("wait"))
				hp.end()
			} else {
				sum, err = indexer.NewIndexer(repo, opts).Index(c.Context, revs, c.Duration("wait"))
			}
			if errors.Is(err, context.Canceled) || err == nil && c.Context.Err() != nil {
				// Interrupted: what was published is kept, but the run
				// did not index what it was asked to; no summary says so.
				if sum != nil && len(sum.Commits) > 0 {
					fmt.Fprintf(c.App.ErrWriter, "index: %s indexed before the interruption (%s); the same command resumes there\n", count(len(sum.Commits), "commit"), count(sum.BlobsNew, "new blob"))
				}
				return fmt.Errorf("index: %w", context.Canceled)
			}
			if sum != nil {
				printSummary(c.App.Writer, c.App.ErrWriter, sum, c.Bool("json"))
			}
			return err
		},
	}
}

func removeIndex(c *cli.Context, repo *gitindex.Repo) error {
	lock, err := storewrite.AcquireLock(c.Context, repo.IndexDir, c.Duration("wait"))
	if err != nil {
		return err
	}
	defer lock.Release()
	return storewrite.RemoveIndexData(repo.IndexDir)
}

// summaryJSON is the stable --json form of an indexing summary.
type summaryJSON struct {
	Revisions []revJSON `json:"revisions"`
	*indexer.Summary
	ElapsedMS int64 `json:"elapsed_ms"`
}

type revJSON struct {
	Rev    string `json:"rev"`
	Commit string `json:"commit"`
}

// printSummary prints an indexing run's summary on w and what it
// repaired or rebuilt, a warning, on errw.
func printSummary(w, errw io.Writer, s *indexer.Summary, asJSON bool) {
	if s.Repaired != "" {
		fmt.Fprintf(errw, "warning: %s\n", s.Repaired)
	}
	if s.RebuiltFrom > 0 {
		fmt.Fprintf(errw, "warning: rebuilt the index, written with schema %d, for schema %d\n", s.RebuiltFrom, store.SchemaVersion)
	}
	if asJSON {
		out := summaryJSON{Summary: s, ElapsedMS: s.Elapsed.Milliseconds()}
		for _, c := range s.Commits {
			out.Revisions = append(out.Revisions, revJSON{Rev: c.Rev, Commit: c.Hash.String()})
		}
		b, _ := json.Marshal(out)
		fmt.Fprintln(w, string(b))
		return
	}
	var revs []string
	for _, c := range s.Commits {
		revs = append(revs, fmt.Sprintf("%s (%s)", c.Rev, c.Hash.String()[:12]))
	}
	if n := len(s.Commits); n > 3 {
		revs = []string{fmt.Sprintf("%d commits, %s … %s", n, s.Commits[0].Hash.String()[:12], s.Commits[n-1].Hash.String()[:12])}
	}
	fmt.Fprintf(w, "indexed %s in %s\n", strings.Join(revs, ", "), s.Elapsed.Round(time.Millisecond))
	fmt.Fprintf(w, "  files %d, blobs %d: %d new, %d already indexed\n", s.Files, s.Blobs, s.BlobsNew, s.BlobsReused)
	if s.Resumed > 0 {
		fmt.Fprintf(w, "  resumed: %d of the %d commits were indexed by an earlier run\n", s.Resumed, len(s.Commits))
	}
	if s.BlobsEdited > 0 {
		fmt.Fprintf(w, "  edited files chunked from their previous version: %d\n", s.BlobsEdited)
	}
	if s.BlobsNew > 0 {
		rate := ""
		if secs := s.Elapsed.Seconds(); secs > 0 {
			rate = fmt.Sprintf(" (%.0f blobs/s, %.1f MB/s)", float64(s.BlobsNew)/secs, float64(s.Bytes)/1e6/secs)
		}
		fmt.Fprintf(w, "  chunks %d, vectors computed %d, reused %d%s\n", s.Chunks, s.Embedded, s.VectorsReused, rate)
	}
	if len(s.Skipped) > 0 {
		var parts []string
		for reason, n := range s.Skipped {
			parts = append(parts, fmt.Sprintf("%s %d", reason, n))
		}
		sort.Strings(parts)
		fmt.Fprintf(w, "  skipped: %s\n", strings.Join(parts, ", "))
	}
	if s.SyntaxErrors > 0 {
		fmt.Fprintf(w, "  files with syntax errors %d (%d minor, %d severe); list them with `git bcindex status --errors`\n",
			s.SyntaxErrors, s.SyntaxErrors-s.SevereErrors, s.SevereErrors)
	}
	if s.Fallback > 0 {
		fmt.Fprintf(w, "  files split into line windows (no grammar, or the parse failed) %d\n", s.Fallback)
	}
}
