package search

import (
	"sort"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// TestSetQueries: --only-in main --not-in release returns exactly the chunks
// main has and release lacks, by content: a function changed on main counts,
// one that only moved does not.
func TestSetQueries(t *testing.T) {
	r := gittest.New(t)
	files := map[string]string{
		"a.go": "package p\n\n// Alpha flag handling.\nfunc Alpha() int { return 1 }\n",
		"b.go": "package p\n\n// Beta flag handling.\nfunc Beta() int { return 2 }\n",
	}
	r.Commit("base", files)
	r.Git("branch", "release")
	r.Git("mv", "a.go", "moved.go")
	r.Commit("main work", map[string]string{
		"b.go": "package p\n\n// Beta flag handling, now with a feature flag.\nfunc Beta() int { return 3 }\n",
		"c.go": "package p\n\n// Gamma feature flag.\nfunc Gamma() int { return 4 }\n",
	})
	repo := openRepo(t, r.Dir)
	names := func(res *Result) string {
		var out []string
		for _, h := range res.Hits {
			if h.Kind == "function" {
				out = append(out, h.Name)
			}
		}
		sort.Strings(out)
		return strings.Join(out, " ")
	}
	res := run(t, repo, Options{Query: "flag", Mode: ModeText, K: 50, OnlyIn: []string{"main"}, NotIn: []string{"release"}})
	if got := names(res); got != "Beta Gamma" {
		t.Errorf("only-in main not-in release: %q, want \"Beta Gamma\"", got)
	}
	if res.Commit.Rev != "main" {
		t.Errorf("searched %q, want main (the first --only-in)", res.Commit.Rev)
	}
	res = run(t, repo, Options{Query: "flag", Mode: ModeText, K: 50, OnlyIn: []string{"release"}, NotIn: []string{"main"}})
	if got := names(res); got != "Beta" {
		t.Errorf("only-in release not-in main: %q, want the old Beta", got)
	}
	res = run(t, repo, Options{Query: "flag", Mode: ModeText, K: 50, OnlyIn: []string{"main", "release"}})
	if got := names(res); got != "Alpha" {
		t.Errorf("in both: %q, want Alpha", got)
	}
}
