package pathspec

import "testing"

// TestWildmatch: git's glob rules, with and without wmPathname (where '*'
// and '?' stop at '/' and "**/" spans directories) and case folding.
func TestWildmatch(t *testing.T) {
	for _, c := range []struct {
		text, pat          string
		glob, globI, plain bool
	}{
		{"foo", "foo", true, true, true},
		{"foo", "fo", false, false, false},
		{"FOO", "foo", false, true, false},
		{"foo/bar", "foo*", false, false, true},
		{"foo/baz/bar", "foo/**/bar", true, true, true},
		{"foo/bar", "foo/**/bar", true, true, false},
		{"a/b/c.go", "**/*.go", true, true, true},
		{"c.go", "**/*.go", true, true, false},
		{"x/c.go", "*.go", false, false, true},
		{"foo/bar", "foo?bar", false, false, true},
		{"foo/bar", "foo[/]bar", false, false, true},
		{"ten", "t[a-g]n", true, true, true},
		{"ton", "t[!a-g]n", true, true, true},
		{"ton", "t[^a-g]n", true, true, true},
		{"a]b", "a[]]b", true, true, true},
		{"a-b", "a[]-]b", true, true, true},
		{"a1B", "[[:alpha:]][[:digit:]][[:upper:]]", true, true, true},
		{"a", "[[:upper:]]", false, true, false},
		{"foo*", `foo\*`, true, true, true},
		{"foobar", `foo\*bar`, false, false, false},
		{"deep/foo/bar/baz/x", "**/bar/*/*", true, true, true},
		{"acrt", "a[c-c]st", false, false, false},
		{"", "*", true, true, true},
		{"x", "[", false, false, false},
	} {
		if got := wildmatch(c.pat, c.text, wmPathname); got != c.glob {
			t.Errorf("%q ~ %q with wmPathname: %v", c.text, c.pat, got)
		}
		if got := wildmatch(c.pat, c.text, wmPathname|wmCaseFold); got != c.globI {
			t.Errorf("%q ~ %q with wmPathname|wmCaseFold: %v", c.text, c.pat, got)
		}
		if got := wildmatch(c.pat, c.text, 0); got != c.plain {
			t.Errorf("%q ~ %q: %v", c.text, c.pat, got)
		}
	}
}

// TestMatch: pathspecs given in a directory, with their magic.
func TestMatch(t *testing.T) {
	for _, c := range []struct {
		prefix string
		specs  []string
		depth  int
		path   string
		want   bool
	}{
		{"", nil, -1, "a/b.go", true},
		{"sub/", nil, -1, "a/b.go", false},
		{"sub/", nil, -1, "sub/b.go", true},
		{"", []string{"src"}, -1, "src/a/b.go", true},
		{"", []string{"src"}, -1, "srcx/b.go", false},
		{"", []string{"src/"}, -1, "src/b.go", true},
		{"", []string{"*.go"}, -1, "a/b.go", true},
		{"", []string{":(glob)*.go"}, -1, "a/b.go", false},
		{"", []string{":(glob)**/*.go"}, -1, "a/b.go", true},
		{"", []string{":(icase)README*"}, -1, "readme.md", true},
		{"", []string{"README*"}, -1, "readme.md", false},
		{"", []string{":(literal)*.go"}, -1, "a.go", false},
		{"", []string{":(literal)*.go"}, -1, "*.go", true},
		{"", []string{":!src"}, -1, "src/a.go", false},
		{"", []string{":^src"}, -1, "doc/a.md", true},
		{"sub/", []string{":(exclude)x"}, -1, "sub/x/a", false},
		{"sub/", []string{":(exclude)x"}, -1, "other/a", false},
		{"sub/", []string{":(top)doc"}, -1, "doc/a", true},
		{"sub/", []string{":/doc"}, -1, "doc/a", true},
		{"sub/", []string{"../doc"}, -1, "doc/a", true},
		{"sub/", []string{"./a"}, -1, "sub/a", true},
		{"", nil, 0, "a.go", true},
		{"", nil, 0, "d/a.go", false},
		{"", []string{"d"}, 1, "d/e/a.go", true},
		{"", []string{"d"}, 0, "d/e/a.go", false},
		{"", []string{"d/*"}, 0, "d/e/a.go", true},
	} {
		s, err := Parse(c.specs, c.prefix, "/top", c.depth)
		if err != nil {
			t.Fatalf("%q in %q: %v", c.specs, c.prefix, err)
		}
		if got := s.Match(c.path); got != c.want {
			t.Errorf("%q in %q (depth %d) ~ %q: %v", c.specs, c.prefix, c.depth, c.path, got)
		}
	}
	for _, bad := range []string{"../x", ":(bogus)x", ":(literal,glob)x", ":-x", ":(top"} {
		if _, err := Parse([]string{bad}, "", "/top", -1); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestRelative(t *testing.T) {
	for _, c := range [][3]string{
		{"a/b.go", "", "a/b.go"},
		{"sub/c.go", "sub/", "c.go"},
		{"cmd/b.go", "sub/", "../cmd/b.go"},
		{"subx/a", "sub/", "../subx/a"},
		{"a/c", "a/b/", "../c"},
		{"z.go", "a/b/", "../../z.go"},
	} {
		if got := Relative(c[0], c[1]); got != c[2] {
			t.Errorf("Relative(%q, %q) = %q, want %q", c[0], c[1], got, c[2])
		}
	}
}
