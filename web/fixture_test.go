package web

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

const configPy = `import json


class ConfigLoader:
    """Loads settings from disk."""

    def parse_config_file(self, path):
        """Parse the config file at path and return a dict."""
        with open(path) as f:
            return json.load(f)
`

// fixture is a real repository with a history (a function added, changed,
// moved, then deleted), indexed with the built-in model, served by a real
// HTTP server on loopback.
type fixture struct {
	repo    *gitindex.Repo
	url     string
	commits []string // oldest first
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	r := gittest.New(t)
	var commits []string
	commits = append(commits, r.CommitAt("2024-01-01T00:00:00Z", "add retry", map[string]string{"net/retry.go": gittest.RetryGo, "cfg/config.py": configPy}))
	commits = append(commits, r.CommitAt("2024-02-01T00:00:00Z", "slower backoff", map[string]string{"net/retry.go": strings.Replace(gittest.RetryGo, "delay *= 2", "delay *= 3", 1)}))
	r.Git("mv", "net/retry.go", "net/backoff.go")
	commits = append(commits, r.CommitAt("2024-03-01T00:00:00Z", "move", nil))
	r.Git("rm", "-q", "net/backoff.go")
	commits = append(commits, r.CommitAt("2024-04-01T00:00:00Z", "delete retry", map[string]string{"net/dial.go": "package net\n\n// Dial connects with a timeout.\nfunc Dial(addr string) error { return nil }\n"}))
	r.Git("tag", "v1.0", commits[1])
	repo, err := gitindex.OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	opts := indexer.Options{Embedder: embed.Default()}
	if _, err := indexer.NewIndexer(repo, opts).IndexHistory(context.Background(), gitindex.HistoryOptions{}, 0); err != nil {
		t.Fatal(err)
	}
	s, err := New(repo, Options{Embedder: embed.Default(), Ensure: indexer.Ensurer(opts)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { repo.Close() })
	t.Cleanup(s.Close)
	srv := httptest.NewServer(LoopbackOnly(s))
	t.Cleanup(srv.Close)
	return &fixture{repo: repo, url: srv.URL, commits: commits}
}
