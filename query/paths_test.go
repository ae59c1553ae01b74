package query

import "testing"

// TestPathFilter: --path includes, --exclude and "!" globs exclude, a glob
// without a slash matches a base name or a directory, a directory glob
// matches what is below it.
func TestPathFilter(t *testing.T) {
	cases := []struct {
		include  string
		excludes []string
		path     string
		want     bool
	}{
		{"", nil, "a/b.go", true},
		{"*.go", nil, "a/b.go", true},
		{"*.go", nil, "a/b.py", false},
		{"pkg/**/*.go", nil, "pkg/x/y.go", true},
		{"pkg", nil, "pkg/x/y.go", true},
		{"pkg/", nil, "pkg/x/y.go", true},
		{"!*_test.go", nil, "a/b_test.go", false},
		{"!*_test.go", nil, "a/b.go", true},
		{"", []string{"*_test.go"}, "a/b_test.go", false},
		{"", []string{"vendor"}, "x/vendor/y.go", false},
		{"", []string{"vendor"}, "x/vendored.go", true},
		{"*.go", []string{"gen/**"}, "gen/a.go", false},
		{"*.go", []string{"gen/**"}, "src/a.go", true},
	}
	for _, c := range cases {
		f, err := NewPathFilter(c.include, c.excludes)
		if err != nil {
			t.Fatalf("%q %q: %v", c.include, c.excludes, err)
		}
		if got := f.Match(c.path); got != c.want {
			t.Errorf("path %q, exclude %q: %s matches %v, want %v", c.include, c.excludes, c.path, got, c.want)
		}
	}
	if PathMatches("!*_test.go", "a_test.go") || !PathMatches("!*_test.go", "a.go") {
		t.Error("PathMatches does not read a leading !")
	}
	if _, err := NewPathFilter("[", nil); err == nil {
		t.Error("invalid --path glob accepted")
	}
	if _, err := NewPathFilter("", []string{"["}); err == nil {
		t.Error("invalid --exclude glob accepted")
	}
}
