package pathspec

import "strings"

// Empty reports whether the set lets every path through.
func (s *Set) Empty() bool { return s == nil || len(s.Items) == 0 && s.MaxDepth < 0 }

// Match reports whether path (from the top) passes the set.
func (s *Set) Match(path string) bool {
	if s == nil {
		return true
	}
	if len(s.Items) == 0 {
		return s.MaxDepth < 0 || depth(path) <= s.MaxDepth
	}
	matched := false
	for i := range s.Items {
		it := &s.Items[i]
		if it.Exclude {
			continue
		}
		how := it.match(path)
		if how != noMatch && !s.attrsHold(it, path) {
			how = noMatch
		}
		if how != noMatch && how != matchedWildcard && s.MaxDepth >= 0 {
			n := len(it.Match)
			if n < len(path) && path[n] == '/' {
				n++
			}
			if n > len(path) || depth(path[n:]) > s.MaxDepth {
				how = noMatch
			}
		}
		if how != noMatch {
			matched = true
			break
		}
	}
	if !matched {
		return false
	}
	for i := range s.Items {
		if it := &s.Items[i]; it.Exclude && it.match(path) != noMatch && s.attrsHold(it, path) {
			return false
		}
	}
	return true
}

func depth(p string) int { return strings.Count(p, "/") }

const (
	noMatch = iota
	matchedExactly
	matchedRecursively
	matchedWildcard
)

// match is git's match_pathspec_item for a file.
func (it *Item) match(name string) int {
	m := it.Match
	if m == "" {
		return matchedRecursively
	}
	if len(m) <= len(name) && it.ncmp(m, name, len(m)) {
		if len(m) == len(name) {
			return matchedExactly
		}
		if m[len(m)-1] == '/' || name[len(m)] == '/' {
			return matchedRecursively
		}
	}
	if it.nowildcard < len(m) && it.fnmatch(name) {
		return matchedWildcard
	}
	return noMatch
}

// ncmp compares the first n bytes of a and b, ignoring case past the
// prefix with :(icase).
func (it *Item) ncmp(a, b string, n int) bool {
	if !it.icase {
		return a[:n] == b[:n]
	}
	p := min(it.prefix, n)
	return a[:p] == b[:p] && strings.EqualFold(a[p:n], b[p:n])
}

// fnmatch is git_fnmatch: the literal prefix compared, then the rest
// with wildmatch.
func (it *Item) fnmatch(name string) bool {
	pat, n := it.Match, it.nowildcard
	if n > 0 {
		if len(name) < n || !it.ncmp(pat, name, n) {
			return false
		}
		pat, name = pat[n:], name[n:]
	}
	if it.oneStar {
		suffix := pat[1:]
		if len(name) < len(suffix) {
			return false
		}
		tail := name[len(name)-len(suffix):]
		if it.icase {
			return strings.EqualFold(tail, suffix)
		}
		return tail == suffix
	}
	flags := 0
	if it.icase {
		flags |= wmCaseFold
	}
	if it.glob {
		flags |= wmPathname
	}
	return wildmatch(pat, name, flags)
}

// attrsHold reports whether path meets the item's attribute requirements.
func (s *Set) attrsHold(it *Item, path string) bool {
	if len(it.attrs) == 0 {
		return true
	}
	if s.Attr == nil {
		return false
	}
	names := make([]string, len(it.attrs))
	for i, r := range it.attrs {
		names[i] = r.Name
	}
	got := s.Attr(path, names)
	for _, r := range it.attrs {
		if got[r.Name] != r.State {
			return false
		}
	}
	return true
}
