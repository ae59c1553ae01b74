package main

import (
	"errors"
	"fmt"

	format "github.com/go-git/go-git/v5/plumbing/format/config"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/llm"
)

// chatClient reads bcindex.enhance.url, .model and .keyEnv (repository,
// then global config) and returns the chat-completions client `ask` and
// `enhance` use. The LLM features are opt-in: without a URL this is
// llm.ErrNotConfigured.
func chatClient(repo *gitindex.Repo) (*llm.Client, error) {
	sub, err := enhanceConfig(repo)
	if err != nil {
		return nil, err
	}
	lc, err := llm.ReadConfig(sub.Option)
	if err != nil {
		return nil, err
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

// llmHint explains chat-service errors for exitCode's hint line.
func llmHint(err error) string {
	var ce *llm.ConfigError
	switch {
	case errors.As(err, &ce):
		return fmt.Sprintf("set it with `git config %s ...`; doc/llm.md shows a setup with a local model (Ollama)", ce.Key)
	case errors.Is(err, llm.ErrAuth):
		return "export the key in the variable bcindex.enhance.keyEnv names"
	case errors.Is(err, llm.ErrQuota):
		return "the chat service's quota is exhausted; what is done is kept: run the command again once it is restored"
	}
	return ""
}
