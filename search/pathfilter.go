package search

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// PathFilter selects files by path, for exact search: git pathspecs (a
// directory or file prefix, or a wildcard pattern whose * also matches
// '/', as git grep reads them), --path globs (doublestar: ** spans
// directories), and exclusions (a glob after '!', or --exclude). A file
// is kept when it matches any pathspec and any include glob (when there
// are some) and no exclusion.
type PathFilter struct {
	specs    []pathspec
	includes []string
	excludes []string
}

type pathspec struct {
	prefix string
	re     *regexp.Regexp // for a pattern with wildcards
}

// AddPathspec adds a git pathspec. A leading ':!' or ':^' makes it an
// exclusion, as in git.
func (f *PathFilter) AddPathspec(s string) error {
	for _, neg := range []string{":!", ":^", ":(exclude)"} {
		if rest, ok := strings.CutPrefix(s, neg); ok {
			return f.AddExclude(rest)
		}
	}
	s = strings.TrimPrefix(s, "./")
	if !strings.ContainsAny(s, "*?[") {
		f.specs = append(f.specs, pathspec{prefix: strings.TrimSuffix(s, "/")})
		return nil
	}
	var b strings.Builder
	b.WriteString("^")
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString("[^/]")
		case '[':
			j := strings.IndexByte(s[i+1:], ']')
			if j < 0 {
				return fmt.Errorf("invalid pathspec %q: unclosed [", s)
			}
			class := s[i+1 : i+1+j]
			if strings.HasPrefix(class, "!") {
				class = "^" + class[1:]
			}
			b.WriteString("[" + class + "]")
			i += j + 1
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	if err != nil {
		return fmt.Errorf("invalid pathspec %q: %v", s, err)
	}
	f.specs = append(f.specs, pathspec{re: re})
	return nil
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
		return fmt.Errorf("invalid exclude glob %q", g)
	}
	f.excludes = append(f.excludes, g)
	return nil
}

// Match reports whether the filter keeps path p.
func (f *PathFilter) Match(p string) bool {
	if f == nil {
		return true
	}
	if len(f.specs) > 0 {
		ok := false
		for _, s := range f.specs {
			if s.match(p) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	if len(f.includes) > 0 {
		ok := false
		for _, g := range f.includes {
			if pathMatches(g, p) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	for _, g := range f.excludes {
		if pathMatches(g, p) {
			return false
		}
	}
	return true
}

func (s pathspec) match(p string) bool {
	if s.re != nil {
		return s.re.MatchString(p)
	}
	return s.prefix == "" || p == s.prefix || strings.HasPrefix(p, s.prefix+"/")
}
