package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/urfave/cli/v2"

	"github.com/bcindex/bcindex/gc"
	"github.com/bcindex/bcindex/indexer"
)

func gcCommand() *cli.Command {
	return &cli.Command{
		Name:  "gc",
		Usage: "drop what no ref (HEAD, branches, remote branches, tags) reaches any more",
		Description: "Removes unreachable blobs from the segments (rewriting and merging them, without\n" +
			"re-embedding), their records and vectors from the store, vectors of models no longer\n" +
			"configured, generated summaries of chunk texts no indexed revision holds, and cached\n" +
			"listings of unreachable trees. Safe while searches run; waits for a running indexer.",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print the summary as JSON"},
			&cli.BoolFlag{Name: "reflog", Usage: "also keep what the reflogs name (e.g. HEAD@{3})"},
			&cli.DurationFlag{Name: "wait", Value: 10 * time.Minute, Usage: "how long to wait for a running indexer"},
		},
		Action: func(c *cli.Context) error {
			repo, s, err := openWithSettings(c)
			if err != nil {
				return err
			}
			ix := indexer.NewIndexer(repo, s.indexOptions())
			// The hooks' last indexed tree is their next diff base: keep its listing.
			var keep []plumbing.Hash
			if b, err := os.ReadFile(filepath.Join(repo.IndexDir, "hook.state")); err == nil {
				keep = append(keep, plumbing.NewHash(strings.TrimSpace(string(b))))
			}
			sum, err := gc.GC(c.Context, ix, c.Duration("wait"), gc.Options{Reflog: c.Bool("reflog"), KeepListings: keep})
			if err != nil {
				return fmt.Errorf("gc: %w", err)
			}
			w := c.App.Writer
			if c.Bool("json") {
				b, _ := json.Marshal(struct {
					*gc.Summary
					ElapsedMS int64 `json:"elapsed_ms"`
				}{sum, sum.Elapsed.Milliseconds()})
				fmt.Fprintln(w, string(b))
				return nil
			}
			fmt.Fprintf(w, "gc: %d live blobs from %d refs; dropped %d blobs from the segments (%d → %d segments)\n",
				sum.LiveBlobs, sum.Refs, sum.DeadBlobs, sum.SegmentsBefore, sum.SegmentsAfter)
			if sum.Summaries > 0 || sum.SummaryIndexEntries > 0 {
				fmt.Fprintf(w, "  deleted %d generated summaries (%d from the summary index)\n", sum.Summaries, sum.SummaryIndexEntries)
			}
			fmt.Fprintf(w, "  deleted %d blob records, %d vectors, %d tree listings; rewrote %d log files; %.1f MB → %.1f MB in %s\n",
				sum.BlobRecords, sum.Vectors, sum.Listings, sum.LogFiles, float64(sum.BytesBefore)/1e6, float64(sum.BytesAfter)/1e6, sum.Elapsed.Round(time.Millisecond))
			return nil
		},
	}
}
