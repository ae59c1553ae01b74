package query

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/bcindex/bcindex/gitindex"
)

// gitSpec is a git pathspec: a directory or file prefix, or a wildcard
// pattern whose * and ? also match '/', as git grep reads them.
type gitSpec struct {
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
		f.specs = append(f.specs, gitSpec{prefix: strings.TrimSuffix(s, "/")})
		return nil
	}
	re, err := gitindex.Glob(s)
	if err != nil {
		return fmt.Errorf("invalid pathspec: %v", err)
	}
	f.specs = append(f.specs, gitSpec{re: re})
	return nil
}

func (s gitSpec) match(p string) bool {
	if s.re != nil {
		return s.re.MatchString(p)
	}
	return s.prefix == "" || p == s.prefix || strings.HasPrefix(p, s.prefix+"/")
}
