package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/train"
)

// settings are read from git config (repository, then global).
type settings struct {
	maxFileSize int64
	vectors     bool
	adapt       bool           // bcindex.adapt: use the repository's adapted model
	emb         embed.Embedder // nil when vectors are off
}

func readSettings(repo *gitindex.Repo) (settings, error) {
	s := settings{maxFileSize: indexer.DefaultMaxFileSize, vectors: true}
	cfg, err := repo.Config()
	if err != nil {
		return s, err
	}
	setQuotePath(cfg.Raw.Section("core").Option("quotePath"))
	sec := cfg.Raw.Section("bcindex")
	if v := sec.Option("maxFileSize"); v != "" {
		n, err := parseSize(v)
		if err != nil {
			return s, fmt.Errorf("git config bcindex.maxFileSize %q: %w", v, err)
		}
		s.maxFileSize = n
	}
	if v := sec.Option("vectors"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return s, fmt.Errorf("git config bcindex.vectors %q: want true or false", v)
		}
		s.vectors = b
	}
	if !s.vectors {
		return s, nil
	}
	ecfg, err := embedConfig(sec.Option, repo.WorkTree)
	if err != nil {
		return s, err
	}
	ecfg.Dims = dimFile(filepath.Join(repo.IndexDir, "dimensions.json"))
	if s.emb, err = embed.New(ecfg); err != nil {
		return s, fmt.Errorf("embedder: %w", err)
	}
	// The built-in model adapted to this repository by `git bcindex
	// adapt` replaces it, unless bcindex.adapt is false.
	if s.adapt, err = adaptEnabled(sec.Option("adapt")); err != nil {
		return s, err
	}
	if s.adapt && s.emb.ID() == embed.BuiltinID {
		m, err := train.LoadAdapted(repo.IndexDir, embed.BuiltinID)
		if err != nil {
			return s, adaptedModelError{err}
		}
		if m != nil {
			s.emb = m
		}
	}
	return s, nil
}

// adaptedModelError reports a damaged adapted model. The settings returned
// with it are whole, with the built-in model, so that `git bcindex adapt`
// can replace it.
type adaptedModelError struct{ err error }

func (e adaptedModelError) Error() string {
	return e.err.Error() + " (run `git bcindex adapt` again, or `git config bcindex.adapt false`)"
}

func (e adaptedModelError) Unwrap() error { return e.err }

// adaptEnabled reads bcindex.adapt (default true).
func adaptEnabled(v string) (bool, error) {
	if v == "" {
		return true, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, fmt.Errorf("git config bcindex.adapt %q: want true or false", v)
	}
	return b, nil
}

// embedConfig reads bcindex.embedder, bcindex.endpoint, bcindex.model,
// bcindex.dimensions and bcindex.concurrency. API keys never come from git
// config: the embedders read them from the environment.
func embedConfig(get func(string) string, workTree string) (embed.Config, error) {
	cfg := embed.Config{
		Provider: strings.TrimSpace(get("embedder")),
		Endpoint: strings.TrimSpace(get("endpoint")),
		Model:    strings.TrimSpace(get("model")),
	}
	for _, k := range []string{"apiKey", "api_key", "key", "token"} {
		if get(k) != "" {
			return cfg, fmt.Errorf("git config bcindex.%s: API keys are not read from git config; unset it (`git config --unset bcindex.%s`) and export %s instead", k, k, embed.EnvAPIKey)
		}
	}
	for _, kv := range []struct {
		key string
		dst *int
	}{{"dimensions", &cfg.Dimensions}, {"concurrency", &cfg.Concurrency}} {
		if v := strings.TrimSpace(get(kv.key)); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n <= 0 {
				return cfg, fmt.Errorf("git config bcindex.%s %q: want a positive integer", kv.key, v)
			}
			*kv.dst = n
		}
	}
	if p := strings.ToLower(cfg.Provider); (p == embed.ProviderModel2Vec || p == "" || p == embed.ProviderBuiltin) && cfg.Model != "" {
		cfg.Model = expandPath(cfg.Model, workTree)
	}
	return cfg, nil
}

// expandPath resolves "~/" against the home directory and a relative path
// against the top of the working tree.
func expandPath(p, workTree string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, rest)
		}
	}
	if !filepath.IsAbs(p) && workTree != "" {
		return filepath.Join(workTree, p)
	}
	return p
}

// embedder returns the configured embedder, or nil when vectors are off.
func (s settings) embedder() embed.Embedder {
	return s.emb
}

// embedHint explains embedder errors for exitCode's hint line.
func embedHint(err error) string {
	var ce *embed.ConfigError
	switch {
	case errors.As(err, &ce):
		return fmt.Sprintf("fix it with `git config %s ...`, or `git config --unset %s`; `git config bcindex.vectors false` turns vectors off", ce.Key, ce.Key)
	case errors.Is(err, embed.ErrQuota):
		return "the embedding provider's quota is exhausted; blobs not embedded stay pending: run `git bcindex index` again once the quota is restored"
	case errors.Is(err, embed.ErrAuth):
		return fmt.Sprintf("export a valid API key in %s (or %s for openai)", embed.EnvAPIKey, embed.EnvOpenAIAPIKey)
	}
	return ""
}

// parseSize reads sizes like git does: 1048576, 512k, 2m, 1g.
func parseSize(v string) (int64, error) {
	v = strings.TrimSpace(strings.ToLower(v))
	mult := int64(1)
	switch {
	case strings.HasSuffix(v, "k"):
		mult, v = 1<<10, v[:len(v)-1]
	case strings.HasSuffix(v, "m"):
		mult, v = 1<<20, v[:len(v)-1]
	case strings.HasSuffix(v, "g"):
		mult, v = 1<<30, v[:len(v)-1]
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("want a positive size such as 1048576, 512k or 2m")
	}
	return n * mult, nil
}

// indexOptions are the indexing options the settings call for. A remote
// embedder's requests are filled with the chunks of many blobs up to its
// limits by the indexer itself (embed.Limited).
func (s settings) indexOptions() indexer.Options {
	return indexer.Options{MaxFileSize: s.maxFileSize, Embedder: s.emb}
}

// openWithSettings opens the repository (--dir or the current directory)
// and reads its bcindex settings.
func openWithSettings(c *cli.Context) (*gitindex.Repo, settings, error) {
	repo, err := openRepo(c)
	if err != nil {
		return nil, settings{}, err
	}
	s, err := readSettings(repo)
	return repo, s, err
}
