package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/store/storewrite"
	"github.com/urfave/cli/v2"
)

// errDamaged is a check that found damage and was not asked to repair it.
var errDamaged = errors.New("the index is damaged")

func checkCommand() *cli.Command {
	return &cli.Command{
		Name:      "check",
		Usage:     "verify every byte of the index; --repair rebuilds what is damaged from git",
		ArgsUsage: "[REV...]",
		Description: "Verifies the Badger database block by block, the segment manifest, every segment\n" +
			"file and every cached tree listing against their checksums. With --repair, damaged\n" +
			"parts are set aside or removed, what is sound is kept, and the revisions (default\n" +
			"HEAD) are indexed again from git objects.",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "repair", Usage: "set damaged parts aside and rebuild them from git"},
			&cli.BoolFlag{Name: "json", Usage: "print the report as JSON"},
			&cli.DurationFlag{Name: "wait", Value: 10 * time.Minute, Usage: "how long to wait for a running indexer"},
		},
		Action: runCheck,
	}
}

func runCheck(c *cli.Context) error {
	repo, s, err := openWithSettings(c)
	if err != nil {
		return err
	}
	rep, err := storewrite.Check(c.Context, repo.IndexDir, repo.CheckListing)
	if err != nil {
		return fmt.Errorf("check: %w", err)
	}
	w := c.App.Writer
	if !c.Bool("json") {
		for _, d := range rep.Damaged {
			fmt.Fprintf(w, "damaged: %s\n", d)
		}
	}
	if !c.Bool("repair") {
		if c.Bool("json") {
			b, _ := json.Marshal(rep)
			fmt.Fprintln(w, string(b))
		} else if len(rep.Damaged) == 0 {
			fmt.Fprintf(w, "%d files checked, none damaged\n", rep.Files)
		}
		if len(rep.Damaged) > 0 {
			return fmt.Errorf("%w: %d of %d files", errDamaged, len(rep.Damaged), rep.Files)
		}
		return nil
	}
	if err := storewrite.Repair(c.Context, repo.IndexDir, rep, c.Duration("wait")); err != nil {
		return err
	}
	revs := c.Args().Slice()
	if len(revs) == 0 {
		revs = []string{"HEAD"}
	}
	sum, err := indexer.NewIndexer(repo, s.indexOptions()).Index(c.Context, revs, c.Duration("wait"))
	if err != nil {
		return fmt.Errorf("check --repair: index again: %w", err)
	}
	if err := reindexSummaries(c, repo, s.embedder()); err != nil {
		return fmt.Errorf("check --repair: %w", err)
	}
	after, err := storewrite.Check(c.Context, repo.IndexDir, repo.CheckListing)
	if err != nil {
		return fmt.Errorf("check: %w", err)
	}
	if c.Bool("json") {
		b, _ := json.Marshal(struct {
			*storewrite.CheckReport
			Repaired    int `json:"repaired"`
			BlobsNew    int `json:"blobs_new"`
			StillBroken int `json:"still_damaged"`
		}{rep, len(rep.Damaged), sum.BlobsNew, len(after.Damaged)})
		fmt.Fprintln(w, string(b))
	} else {
		fmt.Fprintf(w, "%d files checked, %d damaged; rebuilt %d blobs from git\n", rep.Files, len(rep.Damaged), sum.BlobsNew)
	}
	if len(after.Damaged) > 0 {
		return fmt.Errorf("%w after repair: %s", errDamaged, after.Damaged[0])
	}
	return nil
}
