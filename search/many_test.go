package search

import (
	"strings"
	"testing"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

const alphaFn = "// Alpha flag handling.\nfunc Alpha() int { return 1 }\n"

// TestManyRefsOneHitPerContent: branches whose file differs in another
// function hold Alpha in three blobs; searched together, Alpha is one hit
// naming all three branches, and each version of Beta is a hit of its own
// naming its branch. A copy of Alpha in another file of main shows in
// also_in.
func TestManyRefsOneHitPerContent(t *testing.T) {
	r := gittest.New(t)
	beta := func(n string) string { return "// Beta flag handling.\nfunc Beta() int { return " + n + " }\n" }
	r.Commit("base", map[string]string{"a.go": "package p\n\n" + alphaFn + "\n" + beta("1")})
	for _, b := range []string{"b1", "b2"} {
		r.Git("checkout", "-q", "-b", b, "main")
		r.Commit(b, map[string]string{"a.go": "package p\n\n" + alphaFn + "\n" + beta(b[1:]+"0")})
	}
	r.Git("checkout", "-q", "main")
	r.Commit("copy", map[string]string{"copy/alpha.go": "package copy\n\n" + alphaFn})
	repo := openRepo(t, r.Dir)
	sel := gitindex.RefSelection{Patterns: []string{"main", "b*"}}

	res := run(t, repo, Options{Query: "Alpha", Mode: ModeSymbol, K: 10, Refs: sel})
	if len(res.Revisions) != 3 {
		t.Fatalf("searched %d revisions, want main, b1, b2", len(res.Revisions))
	}
	var alpha []Hit
	for _, h := range res.Hits {
		if h.Name == "Alpha" {
			alpha = append(alpha, h)
		}
	}
	if len(alpha) != 1 {
		t.Fatalf("Alpha: %d hits, want one for its one content: %+v", len(alpha), alpha)
	}
	h := alpha[0]
	if got := refNames(h); got != "main b1 b2" {
		t.Errorf("Alpha refs = %q, want main b1 b2", got)
	}
	places := append([]string{h.Path}, h.AlsoIn...)
	if !strings.Contains(strings.Join(places, " "), "copy/alpha.go") || !strings.Contains(strings.Join(places, " "), "a.go") {
		t.Errorf("Alpha at %s, also in %v: want both a.go and copy/alpha.go", h.Path, h.AlsoIn)
	}

	res = run(t, repo, Options{Query: "Beta", Mode: ModeSymbol, K: 10, Refs: sel})
	seen := map[string]bool{}
	for _, h := range res.Hits {
		if h.Name != "Beta" {
			continue
		}
		if len(h.Refs) != 1 || h.Ref != h.Refs[0].Name || h.Commit != h.Refs[0].Commit {
			t.Errorf("a Beta version held by one branch names %q (ref %s)", refNames(h), h.Ref)
			continue
		}
		seen[h.Refs[0].Name] = true
	}
	if len(seen) != 3 {
		t.Errorf("Beta versions found on %v, want one per branch", seen)
	}
}

func refNames(h Hit) string {
	var ns []string
	for _, r := range h.Refs {
		ns = append(ns, r.Name)
	}
	return strings.Join(ns, " ")
}
