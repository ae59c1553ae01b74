package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

const openV2 = `package store

// OpenRepository opens the repository at path, creating it when missing.
func OpenRepository(path string) error {
	return create(path)
}
`

// TestHistoryCommands drives index --history, log, search --ref @{date},
// --only-in/--not-in and similar through the command line.
func TestHistoryCommands(t *testing.T) {
	r := gittest.New(t)
	c1 := r.CommitAt("2024-01-01T00:00:00Z", "one", map[string]string{"store/repo.go": sample})
	c2 := r.CommitAt("2024-03-01T00:00:00Z", "two", map[string]string{"store/repo.go": openV2})
	r.Git("rm", "-q", "store/repo.go")
	c3 := r.CommitAt("2024-05-01T00:00:00Z", "three", map[string]string{"other/x.go": "package other\n"})

	code, out, errOut := runCLI(t, r.Dir, "index", "--history", "10", "--json")
	if code != 0 {
		t.Fatalf("index --history: exit %d %s", code, errOut)
	}
	var sum struct {
		Revisions []struct{ Commit string }
		BlobsNew  int `json:"blobs_new"`
	}
	if err := json.Unmarshal([]byte(out), &sum); err != nil || len(sum.Revisions) != 3 || sum.BlobsNew != 3 {
		t.Fatalf("index --history summary %s (%v)", out, err)
	}

	code, out, errOut = runCLI(t, r.Dir, "log", "--json", "-k", "1", "OpenRepository")
	if code != 0 {
		t.Fatalf("log: exit %d %s", code, errOut)
	}
	var tl struct {
		Name    string
		Present bool
		Events  []struct{ Type, Commit, Path, Author string }
	}
	if err := json.Unmarshal([]byte(out), &tl); err != nil {
		t.Fatalf("log --json %q: %v", out, err)
	}
	var got []string
	for _, e := range tl.Events {
		got = append(got, e.Type+" "+e.Commit)
	}
	if want := "added " + c1 + ",changed " + c2 + ",deleted " + c3; tl.Name != "OpenRepository" || tl.Present || strings.Join(got, ",") != want {
		t.Errorf("log timeline %s: %v, want %s", tl.Name, got, want)
	}
	code, out, _ = runCLI(t, r.Dir, "log", "OpenRepository")
	if code != 0 || !strings.Contains(out, "store/repo.go › OpenRepository (function, gone)") || !strings.Contains(out, "2024-03-01  "+c2[:10]+"  changed") {
		t.Errorf("log human output:\n%s", out)
	}

	code, out, errOut = runCLI(t, r.Dir, "search", "--json", "-k", "1", "--ref", "main@{2024-02-01}", "OpenRepository")
	if code != 0 || !strings.Contains(out, `"commit":"`+c1) {
		t.Errorf("search --ref main@{2024-02-01}: exit %d %s %s", code, out, errOut)
	}
	code, out, errOut = runCLI(t, r.Dir, "search", "--json", "--mode", "symbol", "--only-in", c2, "--not-in", c1, "OpenRepository")
	if code != 0 || !strings.Contains(out, `"commit":"`+c2) {
		t.Errorf("search --only-in: exit %d %s %s", code, out, errOut)
	}
	if code, _, _ = runCLI(t, r.Dir, "search", "--mode", "symbol", "--only-in", c1, "--not-in", c1, "OpenRepository"); code != 1 {
		t.Errorf("search --only-in A --not-in A: exit %d, want 1 (no results)", code)
	}
	code, out, errOut = runCLI(t, r.Dir, "similar", "--json", c1+".."+c2)
	if code != 1 {
		// The only other chunks are the file chunks; a hit must name what it is like.
		if code != 0 || !strings.Contains(out, `"like":{"path":"store/repo.go","name":"OpenRepository"`) {
			t.Errorf("similar: exit %d %s %s", code, out, errOut)
		}
	}
}

// TestPushFetchCommands: push to a local bare remote, fetch into a clone,
// and the clone's first index embeds nothing.
func TestPushFetchCommands(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", map[string]string{"store/repo.go": sample})
	bare := t.TempDir() + "/remote.git"
	r.Git("init", "-q", "--bare", "-b", "main", bare)
	r.Git("remote", "add", "origin", bare)
	r.Git("push", "-q", "origin", "main")
	if code, _, errOut := runCLI(t, r.Dir, "index"); code != 0 {
		t.Fatal(errOut)
	}
	code, out, errOut := runCLI(t, r.Dir, "push")
	if code != 0 || !strings.Contains(out, "1 blobs shared, 1 new") {
		t.Fatalf("push: exit %d %s %s", code, out, errOut)
	}
	clone := t.TempDir() + "/clone"
	r.Git("clone", "-q", bare, clone)
	code, out, errOut = runCLI(t, clone, "fetch", "--json", "origin")
	if code != 0 || !strings.Contains(out, `"imported":1`) {
		t.Fatalf("fetch: exit %d %s %s", code, out, errOut)
	}
	clone2 := t.TempDir() + "/clone2"
	r.Git("clone", "-q", bare, clone2)
	code, _, errOut = runCLI(t, clone2, "fetch", "origin")
	if code != 0 || !strings.Contains(errOut, "indexed HEAD: 1 new blob, 0 vectors computed") {
		t.Fatalf("fetch: exit %d, stderr %s", code, errOut)
	}
	// The fetch indexed HEAD: status says so, search finds the function,
	// and index has nothing left to do.
	if st := statusJSON(t, clone); st["indexed"] != true || st["pending_blobs"] != float64(0) || st["chunks_with_vectors"] == float64(0) {
		t.Errorf("status after fetch: %v", st)
	}
	code, out, errOut = runCLI(t, clone, "search", "--no-index", "--json", "OpenRepository")
	if code != 0 || !strings.Contains(out, `"name":"OpenRepository"`) {
		t.Fatalf("search after fetch: exit %d %s %s", code, out, errOut)
	}
	code, out, errOut = runCLI(t, clone, "index", "--json")
	if code != 0 || !strings.Contains(out, `"blobs_new":0`) || !strings.Contains(out, `"embedded":0`) {
		t.Fatalf("index after fetch: exit %d %s %s", code, out, errOut)
	}
}

// TestLogAndSimilarIndexFirst: in a repository never indexed, log and
// similar index what they need first, as search does.
func TestLogAndSimilarIndexFirst(t *testing.T) {
	r := gittest.New(t)
	c1 := r.CommitAt("2024-01-01T00:00:00Z", "one", map[string]string{"store/repo.go": sample})
	c2 := r.CommitAt("2024-03-01T00:00:00Z", "two", map[string]string{"store/repo.go": openV2})

	code, out, errOut := runCLI(t, r.Dir, "log", "--json", "-k", "1", "OpenRepository")
	if code != 0 {
		t.Fatalf("log in an unindexed repository: exit %d %s", code, errOut)
	}
	var tl struct {
		Name   string
		Events []struct{ Type, Commit string }
	}
	if err := json.Unmarshal([]byte(out), &tl); err != nil {
		t.Fatalf("log --json %q: %v", out, err)
	}
	if len(tl.Events) != 2 || tl.Events[0].Commit != c1 || tl.Events[1].Commit != c2 || tl.Name != "OpenRepository" {
		t.Errorf("log timeline %+v, want added at %s and changed at %s", tl, c1, c2)
	}

	r2 := gittest.New(t)
	archive := "package store\n\n// OpenArchive opens the archive at path, creating it when missing.\nfunc OpenArchive(path string) error {\n\treturn create(path)\n}\n"
	r2.Commit("one", map[string]string{"store/repo.go": sample, "store/archive.go": archive})
	r2.Commit("two", map[string]string{"store/repo.go": openV2})
	if code, _, errOut := runCLI(t, r2.Dir, "log", "--no-index", "OpenRepository"); code != 2 || !strings.Contains(errOut, "no indexed history") {
		t.Errorf("log --no-index in an unindexed repository: exit %d, %s", code, errOut)
	}
	code, out, errOut = runCLI(t, r2.Dir, "similar", "--json", "HEAD")
	if code != 0 || !strings.Contains(out, `"name":"OpenArchive"`) {
		t.Fatalf("similar in an unindexed repository: exit %d\n%s\n%s", code, out, errOut)
	}
}

// TestLogNameStartsWhereItAppeared: a timeline for a code-shaped name
// starts at the commit that introduced the name, found by the exact index,
// not at its enclosing class's first commit.
func TestLogNameStartsWhereItAppeared(t *testing.T) {
	r := gittest.New(t)
	v1 := "class Loader:\n    \"\"\"Loads things.\"\"\"\n\n    def load(self, path):\n        return open(path).read()\n"
	v2 := v1 + "\n    def load_many_paths(self, paths):\n        return [self.load(p) for p in paths]\n"
	r.CommitAt("2012-01-01T00:00:00Z", "loader", map[string]string{"loader.py": v1})
	c2 := r.CommitAt("2014-01-01T00:00:00Z", "load many", map[string]string{"loader.py": v2})
	r.CommitAt("2015-01-01T00:00:00Z", "other", map[string]string{"x.py": "x = 1\n"})
	if code, _, errOut := runCLI(t, r.Dir, "index", "--history", "10"); code != 0 {
		t.Fatalf("index: %s", errOut)
	}
	code, out, errOut := runCLI(t, r.Dir, "log", "--json", "load_many_paths")
	if code != 0 {
		t.Fatalf("log: exit %d %s", code, errOut)
	}
	if strings.Contains(out, "2012-01-01") || !strings.Contains(out, c2) {
		t.Fatalf("log load_many_paths: timelines %s\nstderr %s\nwant none before %s", out, errOut, c2)
	}
	code, _, errOut = runCLI(t, r.Dir, "log", "load_many_paths")
	if code != 0 || !strings.Contains(errOut, "load_many_paths first appeared in "+c2[:10]) {
		t.Fatalf("log: exit %d, stderr %q", code, errOut)
	}
}
