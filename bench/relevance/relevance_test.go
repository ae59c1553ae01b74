package relevance

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// TestNDCG checks semble's formula on hand-computed cases.
func TestNDCG(t *testing.T) {
	for _, c := range []struct {
		ranks []int
		n, k  int
		want  float64
	}{
		{[]int{1}, 1, 10, 1},
		{[]int{2}, 1, 10, 1 / math.Log2(3)},
		{[]int{1, 3}, 2, 10, (1 + 0.5) / (1 + 1/math.Log2(3))},
		{[]int{1, 1}, 2, 10, 1 / (1 + 1/math.Log2(3))}, // two targets at one rank count once
		{[]int{6}, 1, 5, 0},
		{nil, 0, 10, 0},
		{[]int{1}, 0, 10, 0}, // no target in the index: 0, as semble scores it
	} {
		if got := ndcgAt(c.ranks, c.n, c.k); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("ndcg@%d(%v, %d) = %v, want %v", c.k, c.ranks, c.n, got, c.want)
		}
	}
}

// TestCovers: paths match when either is a suffix of the other at a
// slash; spans when their lines overlap.
func TestCovers(t *testing.T) {
	span := Target{Path: "pkg/a.go", StartLine: 10, EndLine: 20}
	for _, c := range []struct {
		path       string
		start, end int
		t          Target
		want       bool
	}{
		{"src/pkg/a.go", 1, 5, Target{Path: "pkg/a.go"}, true},
		{"a.go", 1, 5, Target{Path: "pkg/a.go"}, true},
		{"src/xpkg/a.go", 1, 5, Target{Path: "pkg/a.go"}, false},
		{"src/pkg/a.go", 5, 10, span, true},
		{"src/pkg/a.go", 20, 30, span, true},
		{"src/pkg/a.go", 21, 30, span, false},
		{"src/pkg/a.go", 1, 9, span, false},
	} {
		if got := covers(c.path, c.start, c.end, c.t); got != c.want {
			t.Errorf("covers(%s:%d-%d, %s) = %v", c.path, c.start, c.end, c.t, got)
		}
	}
}

// TestTargetJSON reads both forms of a target.
func TestTargetJSON(t *testing.T) {
	var ts []Target
	if err := json.Unmarshal([]byte(`["a.go", {"path": "b.go", "start_line": 3, "end_line": "9"}, {"path": "c.go"}]`), &ts); err != nil {
		t.Fatal(err)
	}
	want := []Target{{Path: "a.go"}, {Path: "b.go", StartLine: 3, EndLine: 9}, {Path: "c.go"}}
	for i := range want {
		if ts[i] != want[i] {
			t.Errorf("target %d = %+v, want %+v", i, ts[i], want[i])
		}
	}
	if err := json.Unmarshal([]byte(`[{"start_line": 1}]`), &ts); err == nil {
		t.Error("a target without a path was read")
	}
}

// TestRun builds a suite over a real repository, runs it end to end and
// checks the scores of queries whose answers are certain, the targets the
// index cannot hold, a repository whose revision is missing, and that the
// source repository is only read.
func TestRun(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes a repository")
	}
	src := gittest.New(t)
	rev := src.Commit("code", map[string]string{
		"lib/config/parse.go":  "package config\n\n// ParseConfig reads the configuration file and returns its settings.\nfunc ParseConfig(path string) (map[string]string, error) {\n\treturn nil, nil\n}\n",
		"lib/retry/backoff.go": "package retry\n\n// Backoff waits longer after each failed attempt, doubling the delay.\nfunc Backoff(attempt int) int {\n\tdelay := 1\n\tfor i := 0; i < attempt; i++ {\n\t\tdelay *= 2\n\t}\n\treturn delay\n}\n",
		"lib/server/listen.go": "package server\n\n// ListenAndServe accepts connections on the address and serves them.\nfunc ListenAndServe(addr string) error {\n\treturn nil\n}\n",
		"docs/guide.md":        "# Guide\n\nHow to parse the configuration.\n",
		"shared/util/trim.go":  "package util\n\n// TrimSpaces drops the blanks around a string.\nfunc TrimSpaces(s string) string {\n\treturn s\n}\n",
	})
	// Some projects link sources kept elsewhere into the indexed root: a
	// walk of a checkout reads a linked file, and does not descend into a
	// linked directory.
	if err := os.Symlink("../shared/util", filepath.Join(src.Dir, "lib", "util")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../../shared/util/trim.go", filepath.Join(src.Dir, "lib", "config", "trim.go")); err != nil {
		t.Fatal(err)
	}
	src.Git("add", "-A")
	src.Git("commit", "-qm", "links")
	rev = src.Git("rev-parse", "HEAD")
	refsBefore := src.Git("for-each-ref")
	countBefore := src.Git("count-objects", "-v")
	dir := t.TempDir()
	repos := filepath.Join(dir, "repos")
	if err := os.MkdirAll(repos, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(src.Dir, ".git"), filepath.Join(repos, "tiny")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(src.Dir, ".git"), filepath.Join(repos, "gone")); err != nil {
		t.Fatal(err)
	}
	suite := filepath.Join(dir, "suite")
	writeJSON(t, filepath.Join(suite, "repos.json"), []map[string]any{
		{"name": "tiny", "language": "go", "url": "", "revision": rev, "benchmark_root": "lib"},
		{"name": "gone", "language": "go", "url": "", "revision": strings.Repeat("1", 40), "benchmark_root": nil},
		{"name": "unannotated", "language": "go", "url": "", "revision": rev},
	})
	tasks := []map[string]any{
		{"query": "ParseConfig", "relevant": []any{"config/parse.go"}, "secondary": []any{}, "category": "symbol"},
		{"query": "wait longer after each failed attempt", "relevant": []any{map[string]any{"path": "lib/retry/backoff.go", "start_line": 3, "end_line": 10}},
			"secondary": []any{"docs/guide.md"}},
		// No category: inferred (symbol, as one word).
		{"query": "ListenAndServe", "relevant": []any{"server/listen.go"}, "secondary": []any{}},
		{"query": "TrimSpaces", "relevant": []any{"lib/config/trim.go"}, "secondary": []any{"lib/util/trim.go"}, "category": "symbol"},
	}
	writeJSON(t, filepath.Join(suite, "annotations", "tiny.json"), tasks)
	writeJSON(t, filepath.Join(suite, "annotations", "gone.json"), tasks[:1])
	work := filepath.Join(dir, "work")
	rep, err := Run(context.Background(), Config{Suite: suite, ReposDir: repos, Work: work, LatencyReps: 2, PerQuery: true,
		Subsets: map[string][]string{"only-tiny": {"tiny"}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Repos) != 1 || rep.Repos[0].Name != "tiny" {
		t.Fatalf("repositories = %+v", rep.Repos)
	}
	if len(rep.Skipped) != 1 || rep.Skipped[0].Name != "gone" || !strings.Contains(rep.Skipped[0].Reason, "pinned revision") {
		t.Errorf("skipped = %+v", rep.Skipped)
	}
	if len(rep.NoAnnotations) != 1 || rep.NoAnnotations[0] != "unannotated" {
		t.Errorf("no annotations = %v", rep.NoAnnotations)
	}
	rr := rep.Repos[0]
	if rr.Chunks < 3 || rr.IndexMs <= 0 || rr.P50ms <= 0 || rr.Queries != 4 {
		t.Errorf("repository = %+v", rr)
	}
	// The guide lies outside benchmark_root: the second query's only
	// target in the index is the span, and the file answers first.
	q2 := rr.PerQuery[1]
	if len(q2.Present) != 2 || !q2.Present[0] || q2.Present[1] {
		t.Errorf("targets present = %v", q2.Present)
	}
	for _, m := range []string{ModeHybrid, ModeText, ModeBM25} {
		if r := q2.Modes[m]; r.NDCG10 != 1 || r.Ranks[0] != 1 {
			t.Errorf("%s: %q ranked %v, NDCG@10 %v (top %v)", m, q2.Query, r.Ranks, r.NDCG10, r.Top)
		}
	}
	for _, i := range []int{0, 2} {
		for _, m := range []string{ModeHybrid, ModeSymbol} {
			if r := rr.PerQuery[i].Modes[m]; r.NDCG10 != 1 {
				t.Errorf("%s: %q NDCG@10 %v, top %v", m, rr.PerQuery[i].Query, r.NDCG10, r.Top)
			}
		}
	}
	q4 := rr.PerQuery[3]
	if !q4.Present[0] || q4.Present[1] || q4.Modes[ModeHybrid].Ranks[0] != 1 {
		t.Errorf("%q: present %v, hybrid ranks %v, top %v", q4.Query, q4.Present, q4.Modes[ModeHybrid].Ranks, q4.Modes[ModeHybrid].Top)
	}
	h := rr.Modes[ModeHybrid]
	if h.NDCG10 != 1 || h.NDCG5 != 1 || h.Hit1 != 1 || h.Hit3 != 1 || h.Queries != 4 {
		t.Errorf("hybrid = %+v", h)
	}
	if rep.All.Modes[ModeHybrid] != (Metrics{Repos: 1, Queries: 4, NDCG10: 1, NDCG5: 1, Hit1: 1, Hit3: 1}) {
		t.Errorf("all = %+v", rep.All.Modes[ModeHybrid])
	}
	if len(rep.ByCategory) != 2 || len(rep.Subsets) != 1 || len(rep.ByLanguage) != 1 {
		t.Errorf("groups: %d categories, %d subsets, %d languages", len(rep.ByCategory), len(rep.Subsets), len(rep.ByLanguage))
	}
	if src.Git("for-each-ref") != refsBefore || src.Git("count-objects", "-v") != countBefore {
		t.Error("the source repository changed")
	}
	if _, err := os.Stat(filepath.Join(work, "tiny.git", "objects", "info", "alternates")); !os.IsNotExist(err) {
		t.Errorf("the built tree still borrows objects: %v", err)
	}
	// A second run reuses the tree and its index.
	rep, err = Run(context.Background(), Config{Suite: suite, ReposDir: repos, Work: work, Repos: []string{"tiny"}, Modes: []string{ModeHybrid}})
	if err != nil {
		t.Fatal(err)
	}
	if rr := rep.Repos[0]; rr.IndexMs != 0 || rr.Modes[ModeHybrid].NDCG10 != 1 {
		t.Errorf("second run = %+v", rr)
	}
	var b strings.Builder
	if err := rep.WriteText(&b); err != nil || !strings.Contains(b.String(), "NDCG@10 by language") {
		t.Errorf("text report: %v\n%s", err, b.String())
	}
}

func writeJSON(t *testing.T, p string, v any) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
