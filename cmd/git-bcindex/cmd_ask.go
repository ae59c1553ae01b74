package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/bcindex/bcindex/ask"
	"github.com/bcindex/bcindex/mcp"
)

func askCommand() *cli.Command {
	return &cli.Command{
		Name:      "ask",
		Usage:     "answer a question about the code with a chat model that searches and reads it, with checked citations",
		ArgsUsage: "QUESTION",
		Description: "The model configured by bcindex.enhance.url and bcindex.enhance.model (any OpenAI-compatible\n" +
			"chat-completions API, e.g. a local Ollama) calls bcindex's search and read tools, under the MCP\n" +
			"server's path rules and output caps, until it answers. Every citation path:start-end@commit\n" +
			"is checked against the repository before printing: one whose lines do not exist or do not hold\n" +
			"the code the answer quotes is removed and said so. See doc/llm.md.",
		Flags: flags([]cli.Flag{
			&cli.StringFlag{Name: "ref", Aliases: []string{"r"}, Value: "HEAD", Usage: "revision to ask about"},
			&cli.IntFlag{Name: "max-turns", Value: 12, Usage: "requests to the model; the last offers no tools"},
			&cli.IntFlag{Name: "max-tokens", Value: 60000, Usage: "tokens over the whole conversation, as the service counts them"},
			&cli.BoolFlag{Name: "json", Usage: "print the whole transcript as JSON, with the citations kept and removed"},
			timeoutFlag(),
		}),
		Action: runAsk,
	}
}

func runAsk(c *cli.Context) error {
	question := strings.TrimSpace(strings.Join(c.Args().Slice(), " "))
	if question == "" {
		return usageError{"usage: git bcindex ask [--ref REV] QUESTION"}
	}
	if c.Int("max-turns") < 1 || c.Int("max-tokens") < 1 {
		return usageError{"--max-turns and --max-tokens must be positive"}
	}
	repo, s, err := openWithSettings(c)
	if err != nil {
		return err
	}
	client, err := commandChat(c, repo, true)
	if err != nil {
		return err
	}
	commit, err := repo.Resolve(c.String("ref"))
	if err != nil {
		return err
	}
	a := &ask.Asker{Client: client, Repo: repo, Commit: commit,
		Server: mcp.NewServer(repo, s.mcpOptions())}
	defer a.Server.Close() // the index views its tools kept open
	opts := ask.Options{Question: question, MaxTurns: c.Int("max-turns"), MaxTokens: c.Int("max-tokens")}
	if isTerminal(c.App.ErrWriter) {
		opts.Show = c.App.ErrWriter
	}
	res, err := a.Ask(c.Context, opts)
	if c.Bool("json") && res != nil {
		enc := json.NewEncoder(c.App.Writer)
		enc.SetIndent("", "  ")
		if werr := enc.Encode(res); werr != nil {
			return fmt.Errorf("write transcript: %w", werr)
		}
	}
	if err != nil {
		return err
	}
	if !c.Bool("json") {
		res.Print(c.App.Writer)
	}
	if len(res.Dropped) > 0 && len(res.Citations) == 0 {
		fmt.Fprintln(c.App.ErrWriter, "warning: no citation of the answer held up; treat it as unverified")
	}
	return nil
}

func askHint(err error) string {
	switch {
	case errors.Is(err, ask.ErrRefused):
		return "rephrase the question about the code"
	case errors.Is(err, ask.ErrBudget):
		return "raise --max-tokens, or ask a narrower question"
	}
	return llmHint(err)
}
