package search

import (
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/query"
)

func mustParse(t *testing.T, s string) *query.Query {
	t.Helper()
	q, err := query.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return &q
}

// TestIsTestPath covers the test naming conventions of the languages
// parsed, and names that merely look like them.
func TestIsTestPath(t *testing.T) {
	for _, p := range []string{"pkg/a_test.go", "tests/test_x.py", "x/y_test.py", "lib/foo_spec.rb", "src/a.test.ts", "src/a.spec.js",
		"src/main/FooTest.java", "FooTests.kt", "Sources/BarTests.swift", "BazTests.cs", "core/QuuxSpec.scala", "core/QuuxSuite.scala",
		"spec/models/user.rb", "__tests__/a.js", "testdata/x.go", "lua/foo_spec.lua", "test_helper.rb"} {
		if !isTestPath(p) {
			t.Errorf("%s is not a test", p)
		}
	}
	for _, p := range []string{"pkg/testing.go", "src/attest.py", "Contest.java", "latest/x.go", "src/specs.rs", "lib/tester.rb", "Suite.java"} {
		if isTestPath(p) {
			t.Errorf("%s is a test", p)
		}
	}
}

// TestPathPrior: the priors multiply; a query asking for the place lifts
// its own.
func TestPathPrior(t *testing.T) {
	code := mustParse(t, "parse the config file")
	for _, c := range []struct {
		path, lang string
		q          *query.Query
		want       float64
	}{
		{"src/config.go", "go", code, 1},
		{"src/config_test.go", "go", code, priorTest},
		{"src/config_test.go", "go", mustParse(t, "config file tests"), 1},
		{"examples/basic/main.go", "go", code, priorExample},
		{"examples/basic/main_test.go", "go", code, priorExample * priorTest},
		{"pkg/_compat.py", "python", code, 1},
		{"pkg/compat/old.py", "python", code, priorCompat},
		{"include/spdlog/fmt/bundled/core.h", "cpp", code, priorVendored},
		{"types/index.d.ts", "typescript", code, priorDecl},
		{"pkg/__init__.py", "python", code, priorBarrel},
		{"docs/guide.md", "markdown", code, priorProse},
		{"docs/guide.md", "markdown", mustParse(t, "guide to the config file"), 1},
		{"README.md", "markdown", mustParse(t, "ParseConfig"), priorProse},
		{"CHANGELOG.md", "markdown", code, priorProse * priorHistory},
		{"docs/History.rst", "rst", code, priorProse * priorHistory},
		{"CHANGELOG.md", "markdown", mustParse(t, "what changed in the config file parser"), priorProse},
		{"CHANGELOG.md", "markdown", mustParse(t, "changelog of the config parser"), 1},
		{"src/history.go", "go", code, 1},
		{".github/ci.yml", "yaml", mustParse(t, "retry a failed request"), priorConfig},
		{"config/app.toml", "toml", code, 1},
	} {
		if got := pathPrior(c.path, c.lang, c.q); got != c.want {
			t.Errorf("pathPrior(%s, %q) = %v, want %v", c.path, c.q.Raw, got, c.want)
		}
	}
}

// TestNamesFile: a name looked up is most likely defined in the file named
// after it.
func TestNamesFile(t *testing.T) {
	for _, c := range []struct {
		query, row, path string
		want             bool
	}{
		{"SelectorParser", "SelectorParser", "lib/selector-parser.js", true},
		{"HonoRequest", "HonoRequest", "src/request.ts", true},
		{"Evaluator", "Evaluator", "lib/renderer.js", false},
		{"Router", "Phoenix.Router", "lib/phoenix/router.ex", true},
		{"Sinatra::Base", "Base", "lib/sinatra/base.rb", true},
		{"Evaluator", "evaluate", "lib/evaluator.js", false},
		{"Set", "Set", "src/reset.js", false},
	} {
		q := mustParse(t, c.query)
		if got := namesFile(squash(q.Text), c.row, c.path, q); got != c.want {
			t.Errorf("namesFile(%s, %s, %s) = %v", c.query, c.row, c.path, got)
		}
	}
}

// TestHasDirMatchesSplit checks hasDir, which walks the directory's parts
// in place, against the parts strings.Split gives, and pathMatchesQuery
// against a set of the path's tokens.
func TestHasDirMatchesSplit(t *testing.T) {
	names := []string{"examples", "demo", "legacy", "a"}
	for _, p := range []string{"x.go", "examples/x.go", "src/examples/x.go", "src/examplesx/x.go", "a/b/c.go", "b/a/c.go", "b/ab/c.go", "/a/x", "a//demo/x", "docs/legacy", "legacy/", "demo/sub/deeper/file.py", "./demo/x"} {
		want := false
		if dir := path.Dir(p); dir != "." {
			for _, part := range strings.Split(dir, "/") {
				want = want || slices.Contains(names, part)
			}
		}
		if got := hasDir(p, names...); got != want {
			t.Errorf("hasDir(%q) = %v, the parts say %v", p, got, want)
		}
	}
	qt := []string{"parse", "of", "http", "header"}
	for p, want := range map[string]bool{"net/http/header.go": true, "parse.go": true, "of/x.go": false, "a/b.go": false, "HttpHeader.java": true} {
		if got := pathMatchesQuery(p, qt); got != want {
			t.Errorf("pathMatchesQuery(%q) = %v, want %v", p, got, want)
		}
	}
}
