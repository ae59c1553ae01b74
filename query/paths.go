package query

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// PathFilter is the path filter of a query: a path passes when it matches
// an include glob (or there is none), a git pathspec (or there is none),
// and none of the exclude globs. It is the one rule for --path, --exclude
// and grep's pathspecs: every command that filters paths builds it with
// NewPathFilter, then AddPathspec, AddGlob or AddExclude for more.
type PathFilter struct {
	includes []string
	excludes []string
	specs    []gitSpec // see AddPathspec
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
	if include != "" {
		if err := f.AddGlob(include); err != nil {
			return f, err
		}
	}
	for _, g := range excludes {
		if g == "" {
			continue
		}
		if err := f.AddExclude(g); err != nil {
			return f, err
		}
	}
	return f, nil
}

// AddGlob adds a --path glob; one starting with '!' excludes.
func (f *PathFilter) AddGlob(g string) error {
	if rest, ok := strings.CutPrefix(g, "!"); ok {
		return f.AddExclude(rest)
	}
	if !doublestar.ValidatePattern(g) {
		return fmt.Errorf("invalid --path glob %q", g)
	}
	f.includes = append(f.includes, g)
	return nil
}

// AddExclude adds a glob of paths to leave out.
func (f *PathFilter) AddExclude(g string) error {
	if !doublestar.ValidatePattern(g) {
		return fmt.Errorf("invalid --exclude glob %q", g)
	}
	f.excludes = append(f.excludes, g)
	return nil
}

// Empty reports whether the filter lets every path through.
func (f PathFilter) Empty() bool {
	return len(f.includes) == 0 && len(f.excludes) == 0 && len(f.specs) == 0
}

// Match reports whether path p passes the filter.
func (f PathFilter) Match(p string) bool {
	if len(f.specs) > 0 && !slices.ContainsFunc(f.specs, func(s gitSpec) bool { return s.match(p) }) {
		return false
	}
	if len(f.includes) > 0 && !slices.ContainsFunc(f.includes, func(g string) bool { return globMatches(g, p) }) {
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
