package main

import (
	"strings"
	"testing"

	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/internal/testkit/weaviatetest"
)

// TestPublishWarnsOnce: publishing to a cluster that ranks BM25 with
// BlockMax WAND warns once per repository, saying what it costs and what
// to do; the next publish of the same repository does not repeat it.
func TestPublishWarnsOnce(t *testing.T) {
	srv := weaviatetest.Start(t, 1, "USE_INVERTED_SEARCHABLE=true")
	var repos []*gittest.Repo
	for _, name := range []string{"one", "two"} {
		r := gittest.New(t)
		r.Commit("init", map[string]string{"store/repo.go": sample})
		r.Git("config", "bcindex.remote.url", srv.URL())
		r.Git("config", "bcindex.remote.name", "acme/"+name)
		repos = append(repos, r)
	}
	warnings := func(r *gittest.Repo) int {
		t.Helper()
		code, _, errOut := runCLI(t, r.Dir, "publish")
		if code != 0 {
			t.Fatalf("publish: exit %d: %s", code, errOut)
		}
		n := strings.Count(errOut, "warning: "+srv.URL()+" ranks BM25 with BlockMax WAND")
		if n > 0 && (!strings.Contains(errOut, "USE_INVERTED_SEARCHABLE=false") || !strings.Contains(errOut, "rarest word")) {
			t.Errorf("warning without its cause or its fix:\n%s", errOut)
		}
		return n
	}
	if n := warnings(repos[0]); n != 1 {
		t.Errorf("first publish: %d warnings, want 1", n)
	}
	repos[0].Commit("more", map[string]string{"store/more.go": "package store\n\n// More does more.\nfunc More() {}\n"})
	if n := warnings(repos[0]); n != 0 {
		t.Errorf("second publish of the same repository: %d warnings, want 0", n)
	}
	if n := warnings(repos[1]); n != 1 {
		t.Errorf("first publish of another repository: %d warnings, want 1", n)
	}
}
