package search

import (
	"fmt"
	"path"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// PathFilter is the path filter of a query: a path passes when it matches
// the include glob (or there is none) and none of the exclude globs. It is
// the one rule for --path and --exclude: every command that filters paths
// builds it with NewPathFilter.
type PathFilter struct {
	include  string
	excludes []string
}

// NewPathFilter parses a --path glob and --exclude globs. A --path glob
// starting with "!" excludes instead (as in .gitignore and ripgrep's
// --glob): `--path '!*_test.go'` is `--exclude '*_test.go'`. A glob
// without a slash matches the base name or any directory too ("*.go"
// matches "a/b.go", "vendor" "x/vendor/y.go"); a directory matches
// everything below it. An invalid glob is an error
// naming it.
func NewPathFilter(include string, excludes []string) (PathFilter, error) {
	var f PathFilter
	if rest, ok := strings.CutPrefix(include, "!"); ok {
		excludes = append([]string{rest}, excludes...)
		include = ""
	}
	if include != "" && !doublestar.ValidatePattern(include) {
		return f, fmt.Errorf("invalid --path glob %q", include)
	}
	f.include = include
	for _, g := range excludes {
		if g == "" {
			continue
		}
		if !doublestar.ValidatePattern(g) {
			return f, fmt.Errorf("invalid --exclude glob %q", g)
		}
		f.excludes = append(f.excludes, g)
	}
	return f, nil
}

// Empty reports whether the filter lets every path through.
func (f PathFilter) Empty() bool { return f.include == "" && len(f.excludes) == 0 }

// Match reports whether path p passes the filter.
func (f PathFilter) Match(p string) bool {
	if f.include != "" && !globMatches(f.include, p) {
		return false
	}
	for _, g := range f.excludes {
		if globMatches(g, p) {
			return false
		}
	}
	return true
}

// PathMatches reports whether path p passes a --path glob ("!GLOB"
// excludes), as search filters paths; an invalid glob matches nothing.
func PathMatches(glob, p string) bool {
	f, err := NewPathFilter(glob, nil)
	return err == nil && f.Match(p)
}

// globMatches matches a glob against the whole path, or, for a pattern
// without a slash, against the base name and each directory too ("*.go"
// matches "a/b.go", "vendor" everything below any directory vendor).
func globMatches(glob, p string) bool {
	if ok, _ := doublestar.Match(glob, p); ok {
		return true
	}
	if !strings.Contains(glob, "/") {
		if ok, _ := doublestar.Match(glob, path.Base(p)); ok {
			return true
		}
		ok, _ := doublestar.Match("**/"+glob+"/**", p)
		return ok
	}
	if ok, _ := doublestar.Match(strings.TrimSuffix(glob, "/")+"/**", p); ok {
		return true
	}
	return false
}
