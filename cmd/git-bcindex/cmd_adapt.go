package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/train"
)

func adaptCommand() *cli.Command {
	return &cli.Command{
		Name:  "adapt",
		Usage: "fine-tune the built-in model on this repository's documented functions",
		Description: "Trains the built-in model further on the (first doc sentence, code) pairs of\n" +
			"--ref, read from git objects, and keeps the result in the index under its own\n" +
			"model ID; index and search then use it, and compute its vectors as they go.\n" +
			"`git config bcindex.adapt false` goes back to the built-in model.\n" +
			"--measure adapts on half of the documented functions and compares the two\n" +
			"models on the other half, without keeping anything.",
		Flags: flags([]cli.Flag{
			&cli.StringFlag{Name: "ref", Aliases: []string{"r"}, Value: "HEAD", Usage: "revision whose code to adapt to"},
			&cli.BoolFlag{Name: "measure", Usage: "adapt on half, report MRR@10 of both models on the other half, keep nothing"},
		}),
		Action: runAdapt,
	}
}

func runAdapt(c *cli.Context) error {
	if c.Args().Len() != 0 {
		return usageError{"usage: git bcindex adapt [--ref REV] [--measure]"}
	}
	repo, s, err := openWithSettings(c)
	var damaged adaptedModelError
	if err != nil && !errors.As(err, &damaged) { // adapting replaces a damaged model
		return err
	}
	switch {
	case !s.vectors:
		return errors.New("adapt: bcindex.vectors is false; adaptation is for the vector arm (`git config --unset bcindex.vectors`)")
	case !s.adapt:
		return errors.New("adapt: bcindex.adapt is false; `git config --unset bcindex.adapt` turns adaptation back on")
	case !strings.HasPrefix(s.emb.ID(), embed.BuiltinID):
		return fmt.Errorf("adapt: the configured embedder is %s; adaptation applies to the built-in model (`git config --unset bcindex.embedder`)", s.emb.ID())
	}
	base, err := embed.Builtin()
	if err != nil {
		return fmt.Errorf("adapt: %w", err)
	}
	measure := c.Bool("measure")
	fmt.Fprintf(c.App.ErrWriter, "adapting %s to %s...\n", base.ID(), c.String("ref"))
	a, err := train.AdaptRepo(c.Context, repo, c.String("ref"), base, train.DefaultConfig(), measure)
	if err != nil {
		return err
	}
	if measure {
		w := c.App.Writer
		train.PrintResults(w, fmt.Sprintf("%s on the held-out half", base.ID()), a.Base)
		train.PrintResults(w, fmt.Sprintf("adapted on the other half (%d pairs)", a.Pairs), a.Adapted)
		return nil
	}
	if err := train.SaveAdapted(repo.IndexDir, a.Data); err != nil {
		return err
	}
	fmt.Fprintf(c.App.Writer, "adapted model %s (%d documented functions); index and search use it from now on\n", a.ID, a.Pairs)
	return nil
}
