package search

import (
	"fmt"
	"regexp"
	"strings"
)

// pathspec is a git pathspec: a directory or file prefix, or a wildcard
// pattern whose * also matches '/', as git grep reads them.
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

func (s pathspec) match(p string) bool {
	if s.re != nil {
		return s.re.MatchString(p)
	}
	return s.prefix == "" || p == s.prefix || strings.HasPrefix(p, s.prefix+"/")
}
