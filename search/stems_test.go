package search

import (
	"slices"
	"testing"
)

func TestWordForms(t *testing.T) {
	for word, want := range map[string][]string{
		"dependencies": {"dependency"},
		"matching":     {"match", "matches", "matched"},
		"match":        {"matches", "matching", "matched", "matcher"},
		"retries":      {"retry", "retried"},
		"parsed":       {"parse", "parses", "parsing", "parser"},
		"running":      {"run", "runs"},
		"class":        {"classes"},
		"caches":       {"cache", "cached", "caching"},
	} {
		got := wordForms(word)
		for _, w := range want {
			if !slices.Contains(got, w) {
				t.Errorf("wordForms(%q) = %v, lacks %q", word, got, w)
			}
		}
	}
	for _, word := range []string{"run", "x_y", "Go1"} {
		if got := wordForms(word); got != nil {
			t.Errorf("wordForms(%q) = %v, want none", word, got)
		}
	}
}
