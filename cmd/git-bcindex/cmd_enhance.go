package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"

	"github.com/bcindex/bcindex/enhance"
	"github.com/bcindex/bcindex/llm"
)

func enhanceCommand() *cli.Command {
	return &cli.Command{
		Name:      "enhance",
		Usage:     "have a chat model summarise definitions and their logic blocks, once per content",
		ArgsUsage: "[REV...]",
		Description: "Definitions (most used and exported first), then the logic blocks inside long ones with\n" +
			"their definition's summary as context, are sent in batches to the model configured by\n" +
			"bcindex.enhance.url and bcindex.enhance.model. Each answer (summary, keywords, purpose) is\n" +
			"validated and stored by chunk content, model and prompt version: a text is never asked for\n" +
			"twice, whatever revision or path holds it. Interrupted runs keep what is stored and resume.\n" +
			"Start with --dry-run to see the cost. See doc/llm.md.",
		Flags: flags([]cli.Flag{
			&cli.BoolFlag{Name: "dry-run", Aliases: []string{"n"}, Usage: "count the chunks and estimate the tokens; send nothing"},
			&cli.IntFlag{Name: "max-chunks", Usage: "summarise at most `N` chunks in this run (0: all)"},
			&cli.IntFlag{Name: "budget-tokens", Usage: "stop before spending more than `N` tokens (0: no limit)"},
			&cli.IntFlag{Name: "batch", Value: 8, Usage: "chunks per request"},
			&cli.BoolFlag{Name: "json", Usage: "print the run's counts as JSON"},
			timeoutFlag(),
		}),
		Action: runEnhance,
	}
}

func runEnhance(c *cli.Context) error {
	if c.Int("max-chunks") < 0 || c.Int("budget-tokens") < 0 || c.Int("batch") < 1 || c.Int("batch") > 64 {
		return usageError{"--max-chunks and --budget-tokens must not be negative, --batch between 1 and 64"}
	}
	repo, s, err := openWithSettings(c)
	if err != nil {
		return err
	}
	client, err := commandChat(c, repo, false)
	model := ""
	switch {
	case err == nil:
		model = client.Model()
	case c.Bool("dry-run") && errors.Is(err, llm.ErrNotConfigured):
		// Counting needs no chat service.
		client = nil
		if sub, cerr := enhanceConfig(repo); cerr == nil {
			model = strings.TrimSpace(sub.Option("model"))
		}
		fmt.Fprintln(c.App.ErrWriter, "note: no chat service is configured (bcindex.enhance.url): counting only; doc/llm.md shows how to set one up")
	default:
		return err
	}
	items, err := enhance.Collect(c.Context, repo, c.Args().Slice(), s.maxFileSize)
	if err != nil {
		return err
	}
	opts := enhance.Options{Model: model, DryRun: c.Bool("dry-run"), MaxChunks: c.Int("max-chunks"), BudgetTokens: c.Int("budget-tokens"), Batch: c.Int("batch"), Embedder: s.embedder()}
	if isTerminal(c.App.ErrWriter) && !opts.DryRun {
		var bar *progressbar.ProgressBar
		opts.Progress = func(done, total int) {
			if bar == nil {
				bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(c.App.ErrWriter), progressbar.OptionSetDescription("summarising chunks"),
					progressbar.OptionShowCount(), progressbar.OptionClearOnFinish(), progressbar.OptionSetPredictTime(true))
			}
			bar.Set(done)
		}
	} else if !opts.DryRun {
		// Piped: a line now and then (the client adds one while it waits).
		var last time.Time
		opts.Progress = func(done, total int) {
			if time.Since(last) >= 10*time.Second || done == total {
				last = time.Now()
				fmt.Fprintf(c.App.ErrWriter, "enhance: %d of %d chunks handled\n", done, total)
			}
		}
	}
	st, err := enhance.Run(c.Context, client, enhance.Store{IndexDir: repo.IndexDir}, items, opts)
	if c.Bool("json") {
		if werr := json.NewEncoder(c.App.Writer).Encode(st); werr != nil {
			return fmt.Errorf("write output: %w", werr)
		}
	} else {
		printEnhance(c, st, model, opts.DryRun)
	}
	return err
}

func printEnhance(c *cli.Context, st enhance.Stats, model string, dry bool) {
	w := c.App.Writer
	if model == "" {
		fmt.Fprintf(w, "%d chunks (%d definitions, %d blocks); no model configured, so none counted as summarised\n", st.Chunks, st.Macro, st.Micro)
	} else {
		fmt.Fprintf(w, "%d chunks (%d definitions, %d blocks), %d already summarised by %s\n", st.Chunks, st.Macro, st.Micro, st.Stored, model)
	}
	if dry {
		fmt.Fprintf(w, "would summarise %d chunks, about %d tokens; nothing sent\n", st.ToDo, st.EstTokens)
		return
	}
	fmt.Fprintf(w, "summarised %d, skipped %d (malformed twice; asked again next run), %d requests, %d tokens\n", st.Enhanced, st.Skipped, st.Requests, st.Tokens)
	if st.Budget {
		fmt.Fprintf(c.App.ErrWriter, "stopped at --budget-tokens: %d chunks left; run again to continue\n", st.ToDo-st.Enhanced-st.Skipped)
	}
}
