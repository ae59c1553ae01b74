package search

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// layoutFiles are a project whose files share chunks: the same function in
// two files that differ elsewhere (two blobs, one chunk text), a manual
// kept in two versions that differ in one section, and one file at two
// paths (one blob). first are committed first, the rest on top.
func layoutFiles() (first, rest map[string]string) {
	escape := `
// escapeString escapes quotes and backslashes of a string for output.
func escapeString(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r == '"' || r == '\\' {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
`
	section := func(title, body string) string { return "## " + title + "\n\n" + body + "\n\n" }
	manual := section("Sorting", "sort sorts the input array; sort_by sorts an array by a path expression.") +
		section("Numbers", "Numbers are parsed as double precision; a number literal may use an exponent.") +
		section("Strings", "Strings escape quotes and backslashes; @json escapes a string for output.")
	first = map[string]string{
		"pkg/z/strings.go":  "package z\n\nimport \"strings\"\n" + escape + "\nfunc trimAll(s string) string { return strings.TrimSpace(s) }\n",
		"docs/v1/manual.md": "# Manual v1\n\n" + manual + section("Regex", "test matches a string against a regular expression."),
		"net/retry.go":      gittest.RetryGo,
		"cfg/config.py":     gittest.ConfigPy,
		"util/sort.go":      "package util\n\n// SortNumbers sorts the list of numbers in place.\nfunc SortNumbers(xs []int) {\n\tfor i := range xs {\n\t\tfor j := i + 1; j < len(xs); j++ {\n\t\t\tif xs[j] < xs[i] {\n\t\t\t\txs[i], xs[j] = xs[j], xs[i]\n\t\t\t}\n\t\t}\n\t}\n}\n",
	}
	rest = map[string]string{
		"pkg/a/strings.go":   "package a\n\nimport \"strings\"\n" + escape + "\nfunc upper(s string) string { return strings.ToUpper(s) }\n",
		"docs/dev/manual.md": "# Manual dev\n\n" + manual + section("Regex", "test and match apply a regular expression to a string."),
		"util/sort_copy.go":  "package util\n\n// SortNumbers sorts the list of numbers in place.\nfunc SortNumbers(xs []int) {\n\tfor i := range xs {\n\t\tfor j := i + 1; j < len(xs); j++ {\n\t\t\tif xs[j] < xs[i] {\n\t\t\t\txs[i], xs[j] = xs[j], xs[i]\n\t\t\t}\n\t\t}\n\t}\n}\n",
		"lib/number.py":      "def parse_number(text):\n    \"\"\"Parse a number literal, with an optional exponent.\"\"\"\n    return float(text)\n\n\ndef escape_string(s):\n    \"\"\"Escape quotes in a string.\"\"\"\n    return s.replace('\"', '\\\\\"')\n",
		"lib/number_test.py": "from lib.number import parse_number\n\n\ndef test_parse_number():\n    assert parse_number('1e3') == 1000.0\n",
	}
	return first, rest
}

// indexRevs indexes repo's revisions in turn with opts (the static model's
// vectors) and returns how many segments the index has.
func indexRevs(t *testing.T, repo *gitindex.Repo, opts indexer.Options, revs ...string) int {
	t.Helper()
	opts.Embedder = embed.Default()
	segs := 0
	for _, rev := range revs {
		p, err := NewPlan(repo, Options{Query: "x", Rev: rev, Embedder: opts.Embedder})
		if err != nil {
			t.Fatal(err)
		}
		v, _, err := indexer.NewIndexer(repo, opts).Ensure(context.Background(), p.Want, indexer.All, time.Minute)
		if err != nil {
			t.Fatalf("index %s: %v", rev, err)
		}
		segs = len(v.Snap.Segments)
		v.Close()
	}
	return segs
}

// answer is what a search shows, as text: every hit's place, name, score,
// blob and other places, and a file ranking's files and lines.
func answer(res *Result) string {
	var b strings.Builder
	for _, h := range res.Hits {
		fmt.Fprintf(&b, "%s:%d-%d %s %.6f %s also_in=%v\n", h.Path, h.StartLine, h.EndLine, h.Name, h.Score, h.Blob, h.AlsoIn)
	}
	for _, f := range res.Files {
		fmt.Fprintf(&b, "file %s %.6f %v\n", f.Path, f.Score, f.Lines)
	}
	return b.String()
}

// TestAnswersIgnoreSegmentLayout: the same tree indexed in one segment and
// in many (in another order: an older commit first, a segment every two
// blobs) gives the same answers in every mode, down to the scores, which
// of two copies of a chunk is shown and where the others are.
func TestAnswersIgnoreSegmentLayout(t *testing.T) {
	first, rest := layoutFiles()
	newRepo := func() *gitindex.Repo {
		r := gittest.New(t)
		r.Commit("first", first)
		r.Commit("rest", rest)
		r.Git("branch", "old", "HEAD~1")
		return openRepo(t, r.Dir)
	}
	one, many := newRepo(), newRepo()
	if n := indexRevs(t, one, indexer.Options{Workers: 1}, "HEAD"); n != 1 {
		t.Fatalf("one-segment index has %d segments", n)
	}
	if n := indexRevs(t, many, indexer.Options{Workers: 1, CheckpointBlobs: 2}, "HEAD~1", "HEAD"); n < 4 {
		t.Fatalf("many-segment index has %d segments, want 4 or more", n)
	}
	queries := []string{"escape a string", "parse a number with an exponent", "sort the numbers", "regular expression match", "escapeString", "SortNumbers"}
	refs := gitindex.RefSelection{Patterns: []string{"main", "old"}}
	type mode struct {
		name string
		opts Options
	}
	modes := []mode{
		{"hybrid", Options{}},
		{"files", Options{Files: true}},
		{"text", Options{Mode: ModeText}},
		{"vector", Options{Mode: ModeVector}},
		{"symbol", Options{Mode: ModeSymbol}},
		{"raw text", Options{Mode: ModeText, Raw: true}}, // plain BM25: the corpus statistics
		// Two branches at once: one row per chunk text of their union.
		{"refs", Options{Refs: refs}},
		{"refs raw text", Options{Mode: ModeText, Raw: true, Refs: refs}},
	}
	copies := 0
	for _, q := range queries {
		for _, m := range modes {
			o := m.opts
			o.Query, o.K = q, 10
			a, b := runAsIs(t, one, o), runAsIs(t, many, o)
			if len(a.Hits) == 0 && (m.opts.Mode != ModeSymbol || !strings.Contains(q, " ")) {
				t.Errorf("%s %q: no hits", m.name, q)
			}
			if x, y := answer(a), answer(b); x != y {
				t.Errorf("%s %q: answers differ by layout:\none segment:\n%smany segments:\n%s", m.name, q, x, y)
			}
			for _, h := range a.Hits {
				for _, p := range h.AlsoIn {
					if strings.Contains(p, ":") {
						copies++ // a copy of the chunk in another blob
					}
				}
			}
		}
	}
	if copies == 0 {
		t.Error("no answer collapsed a chunk's copy in another file: the test lost its duplicates")
	}
}
