package search

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/internal/testkit/indextest"
	"github.com/bcindex/bcindex/store"
)

func openRepo(t *testing.T, dir string) *gitindex.Repo { return indextest.Open(t, dir) }

func run(t *testing.T, repo *gitindex.Repo, opts Options) *Result {
	t.Helper()
	if opts.Embedder == nil {
		opts.Embedder = embed.Default()
	}
	res, err := searchRepo(context.Background(), repo, opts)
	if err != nil {
		t.Fatalf("search %q: %v", opts.Query, err)
	}
	return res
}

func hasHit(res *Result, name string) bool {
	for _, h := range res.Hits {
		if h.Name == name {
			return true
		}
	}
	return false
}

func TestDeletedFunctionFoundAtOlderRevision(t *testing.T) {
	r := gittest.New(t)
	r.Commit("add retry", map[string]string{"net/retry.go": gittest.RetryGo, "cfg/config.py": gittest.ConfigPy})
	r.Git("rm", "-q", "net/retry.go")
	r.Git("commit", "-qm", "remove retry")
	repo := openRepo(t, r.Dir)

	for _, mode := range []string{ModeHybrid, ModeSymbol, ModeText, ModeVector} {
		old := run(t, repo, Options{Query: "RetryWithBackoff", Rev: "HEAD~1", Mode: mode})
		if !hasHit(old, "RetryWithBackoff") {
			t.Errorf("mode %s: RetryWithBackoff not found at HEAD~1: %+v", mode, old.Hits)
		}
		head := run(t, repo, Options{Query: "RetryWithBackoff", Rev: "HEAD", Mode: mode})
		if hasHit(head, "RetryWithBackoff") {
			t.Errorf("mode %s: RetryWithBackoff found at HEAD after its deletion", mode)
		}
	}
	old := run(t, repo, Options{Query: "RetryWithBackoff", Rev: "HEAD~1"})
	h := old.Hits[0]
	if h.Path != "net/retry.go" || h.StartLine != 5 || h.Kind != "function" || h.Language != "go" {
		t.Errorf("top hit = %+v, want net/retry.go function from line 5 (doc comment included)", h)
	}
	if !strings.Contains(h.Snippet, "func RetryWithBackoff") || h.Commit == "" || h.Blob == "" || h.Ref != "HEAD~1" {
		t.Errorf("hit lacks snippet or provenance: %+v", h)
	}
}

func TestHybridFindsByMeaningAndFilters(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", map[string]string{"net/retry.go": gittest.RetryGo, "cfg/config.py": gittest.ConfigPy,
		"docs/guide.md": "# Guide\n\nIntro.\n\n## Retry policy\n\nFailed calls are retried with exponential backoff.\n"})
	repo := openRepo(t, r.Dir)

	res := run(t, repo, Options{Query: "parse the config file"})
	if len(res.Hits) == 0 || res.Hits[0].Name != "parse_config_file" {
		t.Fatalf("top hit for 'parse the config file' = %+v, want parse_config_file", res.Hits)
	}
	if got := strings.Join(res.Hits[0].Breadcrumb, " › "); got != "cfg/config.py › ConfigLoader › parse_config_file" {
		t.Errorf("breadcrumb = %q", got)
	}
	if res.Hits[0].Parent != "ConfigLoader" {
		t.Errorf("parent = %q, want ConfigLoader", res.Hits[0].Parent)
	}

	res = run(t, repo, Options{Query: "retry", Lang: "markdown"})
	for _, h := range res.Hits {
		if h.Language != "markdown" {
			t.Errorf("--lang markdown returned %s hit %s", h.Language, h.Path)
		}
	}
	if len(res.Hits) == 0 {
		t.Errorf("--lang markdown found nothing for 'retry'")
	}
	res = run(t, repo, Options{Query: "retry", Path: "net/**"})
	if len(res.Hits) == 0 {
		t.Fatal("--path net/** found nothing")
	}
	for _, h := range res.Hits {
		if !strings.HasPrefix(h.Path, "net/") {
			t.Errorf("--path net/** returned %s", h.Path)
		}
	}
	res = run(t, repo, Options{Query: "config", Kind: "class"})
	if len(res.Hits) != 1 || res.Hits[0].Name != "ConfigLoader" {
		t.Errorf("--kind class hits = %+v, want ConfigLoader only", res.Hits)
	}
}

func TestSameCodeSameIdentityAcrossRevisions(t *testing.T) {
	r := gittest.New(t)
	r.Commit("one", map[string]string{"net/retry.go": gittest.RetryGo})
	r.Commit("two", map[string]string{"other.go": "package other\n"})
	repo := openRepo(t, r.Dir)
	a := run(t, repo, Options{Query: "RetryWithBackoff", Rev: "HEAD~1"}).Hits[0]
	b := run(t, repo, Options{Query: "RetryWithBackoff", Rev: "HEAD"}).Hits[0]
	if a.ChunkID != b.ChunkID || a.Commit == b.Commit {
		t.Fatalf("chunk identity differs across revisions: %s vs %s (commits %s, %s)", a.ChunkID, b.ChunkID, a.Commit, b.Commit)
	}
}

func TestSearchErrors(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", map[string]string{"a.go": gittest.RetryGo})
	repo := openRepo(t, r.Dir)
	ctx := context.Background()
	if _, err := SearchIndexed(ctx, repo, Options{Query: "x"}); !errors.Is(err, store.ErrNoIndex) {
		t.Errorf("no index with --no-index: %v", err)
	}
	if _, err := searchRepo(ctx, repo, Options{Query: "  "}); !errors.Is(err, ErrEmptyQuery) {
		t.Errorf("empty query: %v", err)
	}
	if _, err := searchRepo(ctx, repo, Options{Query: "x", Rev: "nope"}); !errors.Is(err, gitindex.ErrUnknownRevision) {
		t.Errorf("unknown rev: %v", err)
	}
	if _, err := searchRepo(ctx, repo, Options{Query: "x", Mode: "fuzzy"}); !errors.Is(err, ErrBadMode) {
		t.Errorf("bad mode: %v", err)
	}
}

func TestCopiedCodeShowsOnce(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", map[string]string{"a/retry.go": gittest.RetryGo, "b/retry_copy.go": strings.Replace(gittest.RetryGo, "package net", "package other", 1)})
	repo := openRepo(t, r.Dir)
	res := run(t, repo, Options{Query: "RetryWithBackoff"})
	n := 0
	for _, h := range res.Hits {
		if h.Name == "RetryWithBackoff" {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("the same function copied into two files appears %d times, want once: %+v", n, res.Hits)
	}
	top := res.Hits[0]
	other := "b/retry_copy.go:5-18"
	if top.Path == "b/retry_copy.go" {
		other = "a/retry.go:5-18"
	}
	if len(top.AlsoIn) != 1 || top.AlsoIn[0] != other {
		t.Fatalf("also_in = %v, want [%s]", top.AlsoIn, other)
	}
}

func TestWorktreeSearchSeesUncommittedChanges(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", map[string]string{"net/retry.go": gittest.RetryGo, "cfg/config.py": gittest.ConfigPy, ".gitignore": "secret/\n"})
	repo := openRepo(t, r.Dir)
	run(t, repo, Options{Query: "RetryWithBackoff"}) // index HEAD
	r.Write(map[string]string{
		"net/halfway.go": "package net\n\n// JitteredSleepDuration picks a random pause.\nfunc JitteredSleepDuration() int {\n",
		"secret/keys.go": "package secret\n\nfunc IgnoredFunction() {}\n",
		"cfg/config.py":  strings.Replace(gittest.ConfigPy, "unrelated_helper", "renamed_helper", 1),
	})
	r.Remove("net/retry.go")

	wt := run(t, repo, Options{Query: "JitteredSleepDuration", Worktree: true})
	if len(wt.Hits) == 0 || wt.Hits[0].Name != "JitteredSleepDuration" || wt.Hits[0].Ref != "worktree" {
		t.Fatalf("untracked half-written function not found with --worktree: %+v", wt.Hits)
	}
	if hasHit(run(t, repo, Options{Query: "renamed_helper", Worktree: true}), "renamed_helper") == false {
		t.Error("modified file's new function not found with --worktree")
	}
	if hasHit(run(t, repo, Options{Query: "RetryWithBackoff", Worktree: true}), "RetryWithBackoff") {
		t.Error("deleted file still found with --worktree")
	}
	if hasHit(run(t, repo, Options{Query: "IgnoredFunction", Worktree: true}), "IgnoredFunction") {
		t.Error("ignored file found with --worktree")
	}
	if !hasHit(run(t, repo, Options{Query: "RetryWithBackoff"}), "RetryWithBackoff") || hasHit(run(t, repo, Options{Query: "JitteredSleepDuration"}), "JitteredSleepDuration") {
		t.Error("HEAD search affected by uncommitted changes")
	}
	if _, err := searchRepo(context.Background(), repo, Options{Query: "x", Worktree: true, Rev: "HEAD~1"}); err == nil {
		t.Error("--worktree with another --ref accepted")
	}
}

func TestMatchSquashed(t *testing.T) {
	cases := []struct {
		name, nq      string
		equal, prefix bool
		n             int
	}{
		{"parseConfig", "parseconfig", true, true, 11},
		{"parse_config_file", "parseconfig", false, true, 15},
		{"ParseConfig", "parsec", false, true, 11},
		{"parseJSON", "parseconfig", false, false, 0},
		{"Ünïcode_Name", "ünïcodename", true, true, len("ünïcodename")},
		{"x", "xy", false, false, 1},
	}
	for _, c := range cases {
		eq, pre, n := matchSquashed([]byte(c.name), c.nq)
		if eq != c.equal || pre != c.prefix || (pre && n != c.n) {
			t.Errorf("matchSquashed(%q, %q) = %v %v %d, want %v %v %d", c.name, c.nq, eq, pre, n, c.equal, c.prefix, c.n)
		}
	}
}

func TestGoMethodNamesItsReceiver(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", map[string]string{"srv/server.go": "package srv\n\ntype Server struct{}\n\n// Serve answers requests until stopped.\nfunc (s *Server) Serve() error { return nil }\n"})
	repo := openRepo(t, r.Dir)
	res := run(t, repo, Options{Query: "Serve", Mode: ModeSymbol})
	if len(res.Hits) == 0 {
		t.Fatal("no hit")
	}
	h := res.Hits[0]
	if h.Parent != "Server" || h.QualifiedName != "Server.Serve" || strings.Join(h.Breadcrumb, " › ") != "srv/server.go › Server › Serve" {
		t.Fatalf("Go method hit: parent %q, qualified %q, breadcrumb %v", h.Parent, h.QualifiedName, h.Breadcrumb)
	}
}

// TestSearchRebuildsAnOlderIndex: a search that may index rebuilds an index
// written by an older schema; with --no-index it reports the mismatch.
func TestSearchRebuildsAnOlderIndex(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", map[string]string{"net/retry.go": gittest.RetryGo})
	repo := openRepo(t, r.Dir)
	run(t, repo, Options{Query: "retry"})
	manifest := filepath.Join(repo.IndexDir, "segments", "MANIFEST")
	b, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	current := fmt.Sprintf(`"schema": %d`, store.SchemaVersion)
	if !bytes.Contains(b, []byte(current)) {
		t.Fatalf("manifest does not hold %s: %s", current, b)
	}
	older := bytes.Replace(b, []byte(current), []byte(fmt.Sprintf(`"schema": %d`, store.SchemaVersion-1)), 1)
	if err := os.WriteFile(manifest, older, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = SearchIndexed(context.Background(), repo, Options{Query: "retry", Embedder: embed.Default()})
	if !errors.Is(err, store.ErrSchema) {
		t.Fatalf("--no-index over an older index: %v, want ErrSchema", err)
	}
	res, sum := runIndexing(t, repo, Options{Query: "RetryWithBackoff"})
	if sum == nil || sum.RebuiltFrom != store.SchemaVersion-1 || !hasHit(res, "RetryWithBackoff") {
		t.Fatalf("search did not rebuild the older index: indexed %+v, %d hits", sum, len(res.Hits))
	}
}

// TestRubyNamesAsTyped: Ruby names singleton methods self.name and has
// operator methods; a name query finds them as typed, and by the method's
// own name.
func TestRubyNamesAsTyped(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", map[string]string{
		"lib/builder.rb": "class Builder\n  def self.app(x)\n    new(x)\n  end\n\n  def self.limit=(v)\n    @limit = v\n  end\n\n  def self.limit\n    @limit\n  end\n\n  def <<(x)\n    @items.push(x)\n  end\n\n  def self.new_from_string(s)\n    eval(s)\n  end\nend\n",
		"lib/server.rb":  "class Server\n  def app\n    @app\n  end\n\n  def run\n    app.call\n  end\nend\n",
		"lib/cgi.rb":     "class CGI\n  def self.run(app)\n    app.call\n  end\nend\n",
	})
	repo := openRepo(t, r.Dir)
	for _, c := range []struct{ query, path, name string }{
		{"self.app", "lib/builder.rb", "self.app"},
		{"app", "lib/server.rb", "app"},
		{"run", "lib/server.rb", "run"},
		{"self.run", "lib/cgi.rb", "self.run"},
		{"self.limit=", "lib/builder.rb", "self.limit="},
		{"self.limit", "lib/builder.rb", "self.limit"},
		{"<<", "lib/builder.rb", "<<"},
		{"new_from_string", "lib/builder.rb", "self.new_from_string"},
		{"Builder.new_from_string", "lib/builder.rb", "self.new_from_string"},
	} {
		for _, mode := range []string{ModeSymbol, ModeHybrid} {
			res := run(t, repo, Options{Query: c.query, Mode: mode})
			if len(res.Hits) == 0 || res.Hits[0].Path != c.path || res.Hits[0].Name != c.name {
				var got []string
				for _, h := range res.Hits {
					got = append(got, h.Path+":"+h.Name)
				}
				t.Errorf("%s %q: hits %v, want %s:%s first", mode, c.query, got, c.path, c.name)
			}
		}
	}
}
