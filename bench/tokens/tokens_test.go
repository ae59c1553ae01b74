package tokens

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/bench/relevance"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// TestCurve: tokens accumulate unit by unit; a target counts once, at the
// first unit covering it; recall within a budget stops at the last unit
// read whole within it; a miss costs missCost.
func TestCurve(t *testing.T) {
	targets := []relevance.Target{{Path: "a.go"}, {Path: "b.go", StartLine: 10, EndLine: 20}}
	units := []unit{
		{Path: "x.go", Start: 1, End: 5, Chars: 400},     // 100 tokens
		{Path: "src/a.go", Start: 1, End: 5, Chars: 800}, // 300
		{Path: "b.go", Start: 1, End: 9, Chars: 400},     // 400: before the span
		{Path: "a.go", Start: 7, End: 9, Chars: 400},     // 500: a.go again
		{Path: "b.go", Start: 15, End: 30, Chars: 2000},  // 1000
	}
	c := curve(units, targets)
	if first, ok := firstHit(c); !ok || first != 300 {
		t.Errorf("first hit at %v %v, want 300", first, ok)
	}
	for _, tc := range []struct {
		budget int
		want   float64
	}{{99, 0}, {299, 0}, {300, 0.5}, {999, 0.5}, {1000, 1}, {4000, 1}} {
		if got := recallAt(c, tc.budget, len(targets)); got != tc.want {
			t.Errorf("recall within %d = %v, want %v", tc.budget, got, tc.want)
		}
	}
	m := summarise([]sample{{curve: c, targets: 2}, {curve: curve(units[:1], targets), targets: 2}})
	if m.Expected != (300+missCost)/2.0 || m.Found != 0.5 || m.MedianFound != 300 || m.Answer != 550 {
		t.Errorf("metrics %+v", m)
	}
}

// TestKeywords: semble's rule, words of three letters or more that are
// not stop words, each once.
func TestKeywords(t *testing.T) {
	got := strings.Join(keywords("How does the retry loop back off, and where is the Retry delay set?"), " ")
	if got != "retry loop back off delay" {
		t.Errorf("keywords = %q", got)
	}
}

func writeJSON(t *testing.T, p string, v any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRun measures a tiny suite over a real repository, indexed and
// served by the MCP server in this process: the search answers find each
// target first and for fewer tokens than reading the grep's files whole,
// which find it too; the verbose answer reaches it for more tokens than the
// default (whose tail of further files lists every file of this small
// repository, so the whole answer is not the smaller).
func TestRun(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes a repository")
	}
	src := gittest.New(t)
	files := map[string]string{
		"config/parse.go":  "package config\n\n// ParseConfig reads the configuration file and returns its settings.\nfunc ParseConfig(path string) (map[string]string, error) {\n\treturn nil, nil\n}\n",
		"retry/backoff.go": "package retry\n\n// Backoff waits longer after each failed attempt, doubling the delay.\nfunc Backoff(attempt int) int {\n\tdelay := 1\n\tfor i := 0; i < attempt; i++ {\n\t\tdelay *= 2\n\t}\n\treturn delay\n}\n",
	}
	// Real files hold more than the answer: the grep reads them whole.
	var more strings.Builder
	for i := 0; i < 60; i++ {
		more.WriteString("\n// helper" + strings.Repeat("x", i) + " does one small thing.\nfunc helper" + strings.Repeat("x", i) + "() int {\n\treturn 1\n}\n")
	}
	for p := range files {
		files[p] += more.String()
	}
	for i := 0; i < 12; i++ { // files the grep reads too: they mention the words
		files[filepath.Join("noise", strings.Repeat("n", i+1)+".go")] = "package noise\n\n// The configuration of the delay is elsewhere.\n" + strings.Repeat("// filler line to read\n", 200)
	}
	rev := src.Commit("code", files)
	dir := t.TempDir()
	repos := filepath.Join(dir, "repos")
	if err := os.MkdirAll(repos, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(src.Dir, ".git"), filepath.Join(repos, "tiny")); err != nil {
		t.Fatal(err)
	}
	suite := filepath.Join(dir, "suite")
	writeJSON(t, filepath.Join(suite, "repos.json"), []map[string]any{{"name": "tiny", "language": "go", "url": "", "revision": rev}})
	writeJSON(t, filepath.Join(suite, "annotations", "tiny.json"), []map[string]any{
		{"query": "parse the configuration file", "relevant": []any{"config/parse.go"}, "secondary": []any{}},
		{"query": "delay doubling after a failed attempt", "relevant": []any{map[string]any{"path": "retry/backoff.go", "start_line": 3, "end_line": 10}}, "secondary": []any{}},
	})
	rep, err := Run(context.Background(), Config{Suite: suite, ReposDir: repos, Work: filepath.Join(dir, "work")})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Repos != 1 || len(rep.Metrics) != 3 || rep.Unreachable != 0 {
		t.Fatalf("report %+v", rep)
	}
	verbose, def, grep := rep.Metrics[0], rep.Metrics[1], rep.Metrics[2]
	for name, m := range map[string]Metrics{"verbose": verbose, "default": def, "grep": grep} {
		if m.Queries != 2 || m.Found != 1 || m.Expected <= 0 || m.Expected >= missCost {
			t.Errorf("%s: %+v", name, m)
		}
	}
	// The default answer reaches the target within 500 tokens, far sooner
	// than grep-then-read, and is smaller as a whole than the verbose one
	// (which of the two reaches the target first depends on the order of
	// two hits in a repository this small).
	if !(def.Expected < grep.Expected && def.Answer < verbose.Answer && def.Recall[0] == 1 && grep.Recall[0] < 1) {
		t.Errorf("default %+v, verbose %+v, grep %+v", def, verbose, grep)
	}
	if math.IsNaN(def.Expected) {
		t.Error("NaN")
	}
	// The tail of further files is the tool's default; more=0 leaves it out.
	none := 0
	tail, err := Run(context.Background(), Config{Suite: suite, ReposDir: repos, Work: filepath.Join(dir, "work"),
		Methods: []Method{Search(1, &none), Search(1, nil)}})
	if err != nil {
		t.Fatal(err)
	}
	if tail.Methods[0] != "search (default answer), k=1, more=0" || !(tail.Metrics[0].Answer < tail.Metrics[1].Answer) ||
		tail.Metrics[1].Found < tail.Metrics[0].Found {
		t.Errorf("k=1 with and without a tail: %v %+v", tail.Methods, tail.Metrics)
	}
	var b strings.Builder
	rep.Print(&b)
	if !strings.Contains(b.String(), "grep keywords + read files") || !strings.Contains(b.String(), "r@500") {
		t.Errorf("table:\n%s", b.String())
	}
}

// TestCut: an answer is cut at its hits' headers and at the lines of its
// tail of further files, whatever lead opens them; each unit keeps the
// lines of the file's other chunks, and the units' characters add up to
// the answer's.
func TestCut(t *testing.T) {
	text := "1. a/x.go:5-18  X  function  (also 1-4)\n" +
		"   func X() {\n" +
		"2. b.go:1-3  B  function\n" +
		"[further files, best first: path:lines of the best chunk  (also other chunks)]\n" +
		"c/y.py:7-9  (also 20-30, 40-41)\n" +
		"[weaker: files the words alone (text) or the meaning alone (vector) rank, in turn]\n" +
		"d.rs:2-4\n" +
		"[2 hits at HEAD (commit abc); read_file path start_line end_line reads one whole]\n"
	units := cut(&relevance.Repo{}, text)
	want := []unit{
		{Path: "a/x.go", Start: 5, End: 18, Also: [][2]int{{1, 4}}},
		{Path: "b.go", Start: 1, End: 3},
		{Path: "c/y.py", Start: 7, End: 9, Also: [][2]int{{20, 30}, {40, 41}}},
		{Path: "d.rs", Start: 2, End: 4},
	}
	if len(units) != len(want) {
		t.Fatalf("%d units: %+v", len(units), units)
	}
	chars := 0
	for i, u := range units {
		w := want[i]
		if u.Path != w.Path || u.Start != w.Start || u.End != w.End || fmt.Sprint(u.Also) != fmt.Sprint(w.Also) {
			t.Errorf("unit %d = %+v, want %+v", i, u, w)
		}
		chars += u.Chars
	}
	if chars != len(text) {
		t.Errorf("units hold %d characters of %d", chars, len(text))
	}
}
