package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	format "github.com/go-git/go-git/v5/plumbing/format/config"
	"github.com/urfave/cli/v2"

	"github.com/bcindex/bcindex/enhance"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/llm"
)

// chatClient reads bcindex.enhance.url, .model and .keyEnv (repository,
// then global config) and returns the chat-completions client `ask` and
// `enhance` use. The LLM features are opt-in: without a URL this is
// llm.ErrNotConfigured.
// timeout, when not zero, overrides bcindex.enhance.timeout.
func chatClient(repo *gitindex.Repo, timeout time.Duration) (*llm.Client, error) {
	sub, err := enhanceConfig(repo)
	if err != nil {
		return nil, err
	}
	lc, err := llm.ReadConfig(sub.Option)
	if err != nil {
		return nil, err
	}
	if timeout > 0 {
		lc.Timeout = timeout
	}
	return llm.New(lc)
}

// enhanceConfig returns the [bcindex "enhance"] section of git config
// (repository, then global).
func enhanceConfig(repo *gitindex.Repo) (*format.Subsection, error) {
	cfg, err := repo.Config()
	if err != nil {
		return nil, err
	}
	return cfg.Raw.Section("bcindex").Subsection("enhance"), nil
}

// timeoutFlag is --timeout of the commands that talk to the chat model.
func timeoutFlag() cli.Flag {
	return &cli.DurationFlag{Name: "timeout", Usage: fmt.Sprintf("longest wait for one answer of the model, e.g. 90s or 10m (default: git config bcindex.enhance.timeout, else %s); a request that times out is not sent again", shortDuration(llm.DefaultTimeout))}
}

// commandChat is chatClient with the command's --timeout, and a line on
// stderr every 10 s while the model has not answered when stderr is not
// a terminal (or always, with always set: a command that draws nothing
// else while it waits).
func commandChat(c *cli.Context, repo *gitindex.Repo, always bool) (*llm.Client, error) {
	client, err := chatClient(repo, c.Duration("timeout"))
	if err != nil {
		return nil, err
	}
	if always || !isTerminal(c.App.ErrWriter) {
		client.Waiting = waitingLine(c.App.ErrWriter, c.Command.Name, client)
	}
	return client, nil
}

// waitingLine says, on its own line, how long a request has been waiting.
func waitingLine(w io.Writer, cmd string, client *llm.Client) func(time.Duration) {
	return func(d time.Duration) {
		try := ""
		if n, of := client.Attempt(); n > 1 {
			try = fmt.Sprintf(", try %d of %d", n, of)
		}
		fmt.Fprintf(w, "%s: waiting for %s at %s: %s so far%s (gives up at %s)\n", cmd, client.Model(), client.Endpoint(), shortDuration(d), try, shortDuration(client.Timeout()))
	}
}

// shortDuration writes 5m rather than 5m0s.
func shortDuration(d time.Duration) string {
	d = d.Round(time.Second)
	s := d.String()
	if d >= time.Minute {
		s = strings.TrimSuffix(s, "0s")
	}
	if d >= time.Hour {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// llmHint explains chat-service errors for exitCode's hint line.
func llmHint(err error) string {
	var ce *llm.ConfigError
	switch {
	case errors.As(err, &ce) && ce.Hint != "":
		return ce.Hint
	case errors.As(err, &ce):
		return fmt.Sprintf("set it with `git config %s ...`; doc/llm.md shows a setup with a local model (Ollama)", ce.Key)
	case errors.Is(err, llm.ErrTimeout):
		return "wait longer with --timeout 15m (or `git config bcindex.enhance.timeout 15m`), or check that the chat service is up and the model loaded"
	case errors.Is(err, enhance.ErrNoSummaries):
		return "check bcindex.enhance.url and bcindex.enhance.model (a chat model that answers in JSON; doc/llm.md), then try one question: `git bcindex ask 'what does main do?'`"
	case errors.Is(err, llm.ErrAuth):
		return "export the key in the variable bcindex.enhance.keyEnv names"
	case errors.Is(err, llm.ErrQuota):
		return "the chat service's quota is exhausted; what is done is kept: run the command again once it is restored"
	}
	return ""
}
