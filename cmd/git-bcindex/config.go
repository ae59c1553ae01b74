package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/config"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
)

// settings are read from git config (repository, then global).
type settings struct {
	maxFileSize int64
	vectors     bool
}

func readSettings(repo *gitindex.Repo) (settings, error) {
	s := settings{maxFileSize: gitindex.DefaultMaxFileSize, vectors: true}
	cfg, err := repo.Git.ConfigScoped(config.GlobalScope)
	if err != nil {
		cfg, err = repo.Git.Config()
		if err != nil {
			return s, fmt.Errorf("read git config: %w", err)
		}
	}
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
	return s, nil
}

// embedder returns the configured embedder, or nil when vectors are off.
func (s settings) embedder() embed.Embedder {
	if !s.vectors {
		return nil
	}
	return embed.Default()
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
