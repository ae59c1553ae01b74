package gitindex

import (
	"errors"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

func TestExpandRefs(t *testing.T) {
	r := gittest.New(t)
	r.Commit("one", map[string]string{"a.go": "package a\n"})
	for _, b := range []string{"feat/x", "release/1.9", "release/1.10", "dup"} {
		r.Git("branch", b)
	}
	for _, tag := range []string{"v1.9", "v1.10", "v2.0", "dup", "release/1.0"} {
		r.Git("tag", tag)
	}
	r.Git("update-ref", "refs/remotes/origin/feat/y", "HEAD")
	r.Git("symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/feat/y")
	r.Git("update-ref", "refs/bcindex/model", "HEAD")
	repo, err := OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	names := func(sel RefSelection) string {
		t.Helper()
		revs, err := repo.ExpandRefs(sel)
		if err != nil {
			t.Fatalf("%+v: %v", sel, err)
		}
		var ns []string
		for _, rv := range revs {
			ns = append(ns, rv.Name)
		}
		return strings.Join(ns, " ")
	}
	cases := []struct {
		sel  RefSelection
		want string
	}{
		{RefSelection{Patterns: []string{"main", "HEAD~0"}}, "main HEAD~0"},
		{RefSelection{Patterns: []string{"refs/heads/*"}}, "refs/heads/dup feat/x main release/1.10 release/1.9"},
		{RefSelection{Patterns: []string{"release/*"}}, "release/1.10 release/1.9 release/1.0"},
		{RefSelection{Patterns: []string{"v1.*", "v?.0"}}, "v1.10 v1.9 v2.0"},
		{RefSelection{Patterns: []string{"feat/*"}}, "feat/x"},
		{RefSelection{Patterns: []string{"*/feat/*"}}, "origin/feat/y"},
		{RefSelection{Patterns: []string{"v1.[!1]*"}}, "v1.9"},
		{RefSelection{Tags: true}, "v2.0 v1.10 v1.9 release/1.0 refs/tags/dup"},
		{RefSelection{AllBranches: true}, "refs/heads/dup feat/x main release/1.10 release/1.9 origin/feat/y"},
	}
	for _, c := range cases {
		if got := names(c.sel); got != c.want {
			t.Errorf("%+v: %q, want %q", c.sel, got, c.want)
		}
	}
	all := names(RefSelection{All: true})
	if strings.Contains(all, "bcindex") || strings.Contains(all, "origin/HEAD") || len(strings.Fields(all)) != 11 {
		t.Errorf("--all: %q; want 11 refs, without refs/bcindex and the symbolic origin/HEAD", all)
	}
	if _, err := repo.ExpandRefs(RefSelection{Patterns: []string{"nope/*"}}); !errors.Is(err, ErrNoRefMatch) {
		t.Errorf("a glob matching nothing: %v, want ErrNoRefMatch", err)
	}
	if _, err := repo.ExpandRefs(RefSelection{Patterns: []string{"v[1"}}); err == nil {
		t.Error("an unclosed [ is no error")
	}
}

func TestVersionLess(t *testing.T) {
	for _, c := range [][2]string{{"v1.9", "v1.10"}, {"v1.0", "v1.0.1"}, {"a", "b"}, {"v2", "v10"}, {"v1.09", "v1.10"}} {
		if !versionLess(c[0], c[1]) || versionLess(c[1], c[0]) {
			t.Errorf("versionLess(%s, %s) should hold, and not the reverse", c[0], c[1])
		}
	}
}
