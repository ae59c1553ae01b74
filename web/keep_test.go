package web

import (
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// TestPagesKeepView: search and exact pages read the index the server
// keeps open while HEAD and the index are unchanged, and read a new
// commit once HEAD moves.
func TestPagesKeepView(t *testing.T) {
	r := gittest.New(t)
	r.Commit("one", map[string]string{"net/retry.go": gittest.RetryGo, "cfg/config.py": configPy})
	repo, err := gitindex.OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { repo.Close() })
	s, err := New(repo, Options{Embedder: embed.Default(), Ensure: indexer.Ensurer(indexer.Options{Embedder: embed.Default()})})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	srv := httptest.NewServer(LoopbackOnly(s))
	t.Cleanup(srv.Close)
	page := func(q, mode, want string) {
		t.Helper()
		code, body := get(t, srv.URL+"/?"+url.Values{"q": {q}, "mode": {mode}}.Encode())
		if code != 200 || !strings.Contains(body, want) {
			t.Fatalf("%s %q: %d, want %q in\n%s", mode, q, code, want, body)
		}
	}
	page("retry with backoff", "hybrid", "net/retry.go")
	page("parse config file", "hybrid", "cfg/config.py")
	if n := s.views.Opens(); n != 1 {
		t.Fatalf("two searches of an unchanged index: %d views opened, want 1", n)
	}
	page("attempts", "exact", "net/retry.go")
	page("json.load", "exact", "cfg/config.py")
	if n := s.views.Opens(); n != 2 {
		t.Fatalf("two exact searches after them: %d views opened, want 2 (one per kind of read)", n)
	}

	r.Commit("two", map[string]string{"cache/frobnicate.go": "package cache\n\n// Frobnicate warms the cache.\nfunc Frobnicate() int { return 42 }\n"})
	page("Frobnicate", "hybrid", "cache/frobnicate.go")
	page("Frobnicate", "exact", "cache/frobnicate.go")
	page("Frobnicate", "hybrid", "cache/frobnicate.go")
	if n := s.views.Opens(); n != 4 {
		t.Fatalf("after a commit: %d views opened, want 4", n)
	}
}
