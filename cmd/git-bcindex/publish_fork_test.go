package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/internal/testkit/weaviatetest"
)

// TestPublishForkOfCheckout: a clone of a local checkout publishes under
// its own path, not under its origin's name, so that publishing it leaves
// the origin's ref alone; a clone of a bare repository keeps the bare
// repository's name.
func TestPublishForkOfCheckout(t *testing.T) {
	orig := gittest.New(t)
	orig.Commit("init", map[string]string{"store/repo.go": sample})
	fork := filepath.Join(t.TempDir(), "fork")
	orig.Git("clone", "-q", orig.Dir, fork)
	f := gittest.At(t, fork)
	f.Commit("fork's change", map[string]string{"store/close.go": "package store\n\n// Close closes it.\nfunc Close() {}\n"})
	bare := filepath.Join(t.TempDir(), "shared.git")
	orig.Git("clone", "-q", "--bare", orig.Dir, bare)
	viaBare := filepath.Join(t.TempDir(), "mine")
	orig.Git("clone", "-q", bare, viaBare)

	srv := weaviatetest.Start(t, 1)
	publish := func(dir string) map[string]any {
		t.Helper()
		gittest.At(t, dir).Git("config", "bcindex.remote.url", srv.URL())
		code, out, errOut := runCLI(t, dir, "publish", "--json")
		if code != 0 {
			t.Fatalf("publish %s: exit %d: %s", dir, code, errOut)
		}
		var sum map[string]any
		if err := json.Unmarshal([]byte(strings.SplitN(out, "\n", 2)[0]), &sum); err != nil {
			t.Fatalf("publish --json: %s (%v)", out, err)
		}
		return sum
	}
	first := publish(orig.Dir)
	forked := publish(fork)
	again := publish(orig.Dir)
	abs, _ := filepath.Abs(fork)
	if want := strings.TrimPrefix(filepath.ToSlash(abs), "/"); forked["repo"] != want || forked["repo"] == first["repo"] {
		t.Errorf("the fork published as %v, want %s (its origin: %v)", forked["repo"], want, first["repo"])
	}
	if again["repo"] != first["repo"] || again["unchanged"] != true {
		t.Errorf("the origin's ref was replaced by the fork's: publishing it again gives %v", again)
	}
	if got := publish(viaBare); got["repo"] != "shared" {
		t.Errorf("a clone of a bare repository published as %v, want shared", got["repo"])
	}
}
