package main

import (
	"slices"
	"testing"
)

// TestGitLogArgs checks which log calls are git log's and how their
// arguments are taken apart.
func TestGitLogArgs(t *testing.T) {
	for _, tc := range []struct {
		args []string
		git  bool
	}{
		{[]string{"log", "-S", "x"}, true},
		{[]string{"--dir", "d", "--no-pager", "log", "-Gfoo", "--oneline"}, true},
		{[]string{"--color", "never", "log", "-S", "x"}, true},
		{[]string{"log", "-S", "--json"}, true}, // the pattern, spelt like an option
		{[]string{"log", "-S", "x", "--json"}, false},
		{[]string{"log", "-S", "x", "--first"}, false},
		{[]string{"log", "-S", "x", "--path=*.go"}, false},
		{[]string{"log", "-S", "x", "-k", "3"}, false},
		{[]string{"log", "retry"}, false},
		{[]string{"log", "--", "-S"}, false},
		{[]string{"search", "-S", "x"}, false},
	} {
		if _, got := gitLogArgs(append([]string{"git-bcindex"}, tc.args...)); got != tc.git {
			t.Errorf("%q: git log's = %v, want %v", tc.args, got, tc.git)
		}
	}

	p, ok := planLog([]string{"-S", "a b", "-i", "--since", "2024-01-01", "-n", "3", "--stat", "--first-parent", "main..topic", "--", "src", ":(exclude)*.md"})
	if !ok || p.pattern != "a b" || p.grep || p.regex || !p.fold || !p.firstParent || !p.diffOut || !p.hasMax || p.max != 3 {
		t.Fatalf("plan: %+v ok %v", p, ok)
	}
	if !slices.Equal(p.walk, []string{"-i", "--since", "2024-01-01", "--first-parent"}) ||
		!slices.Equal(p.pick, []string{"-S", "a b", "-i", "--first-parent"}) ||
		!slices.Equal(p.revs, []string{"main..topic"}) || !slices.Equal(p.paths, []string{"src", ":(exclude)*.md"}) {
		t.Errorf("plan: walk %q pick %q revs %q paths %q", p.walk, p.pick, p.revs, p.paths)
	}
	if got := p.finalArgs(false); !slices.Equal(got, []string{"--stat", "--first-parent"}) {
		t.Errorf("printing options without the pickaxe: %q", got)
	}
	if got := p.finalArgs(true); !slices.Equal(got, []string{"-S", "a b", "-i", "--stat", "--first-parent"}) {
		t.Errorf("printing options with the pickaxe: %q", got)
	}
	// What the index cannot narrow with is git's alone.
	for _, args := range [][]string{
		{"-S", "x", "--graph"}, {"-S", "x", "--follow", "--", "a"}, {"-S", "x", "-G", "y"}, {"-S", ""},
		{"-S", "x", "--reverse", "-n", "2"}, {"-S", "x", "-n", "many"}, {"-S", "x", "--skip=2"}, {"-S", "x", "-m"},
	} {
		if _, ok := planLog(args); ok {
			t.Errorf("%q: planned, want git alone", args)
		}
	}
}
