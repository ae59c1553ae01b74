// Package pathspec reads and matches git pathspecs as git does
// (pathspec.c, dir.c's match_pathspec_item, wildmatch.c): paths relative
// to the current directory, the magic forms :(top) or :/, :(icase),
// :(glob), :(literal), :(exclude) or :! and :^, combined as
// :(top,icase)pattern, the environment's GIT_*_PATHSPECS, and
// --max-depth.
//
// A pattern without wildcards names a file or a directory (everything
// below it matches); one with wildcards is matched against the whole
// path with git's wildmatch, where '*' also matches '/' unless the glob
// magic is on. Paths are relative to the top of the working tree (or of
// the tree searched), '/'-separated.
package pathspec

import (
	"fmt"
	"os"
	"strings"
)

// Item is one parsed pathspec.
type Item struct {
	Original   string // as given
	Match      string // the pattern, from the top (the prefix applied)
	prefix     int    // bytes of Match that are the current directory: compared case-sensitively
	nowildcard int    // bytes before the first wildcard
	top        bool
	literal    bool
	glob       bool
	icase      bool
	Exclude    bool
	oneStar    bool // a single '*' followed by a literal: a suffix compare
	attrs      []AttrReq
}

// AttrReq is one requirement of :(attr:…) magic: the attribute Name set
// (State "set"), unset ("unset", written -NAME), unspecified ("",
// written !NAME), or set to a value (the value, written NAME=VALUE).
type AttrReq struct{ Name, State string }

// Set is a parsed list of pathspecs: a path matches when some positive
// item matches it and no excluding one does.
type Set struct {
	Items    []Item
	MaxDepth int // -1: no limit
	// Attr answers :(attr:…) items: the state of each named attribute
	// of path ("set", "unset", "" unspecified, or its value). Without it
	// such items match nothing.
	Attr func(path string, names []string) map[string]string
}

// AttrNames are the attributes the set's :(attr:…) items name.
func (s *Set) AttrNames() []string {
	var names []string
	if s == nil {
		return nil
	}
	for _, it := range s.Items {
		for _, r := range it.attrs {
			names = append(names, r.Name)
		}
	}
	return names
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

// Error is a pathspec git refuses, in git's words.
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

// Parse reads pathspecs given in the directory prefix (relative to the
// top, "" or ending in '/'), as git grep reads them: with none, or with
// only exclusions, the current directory is implied. top names the top of
// the working tree for messages.
func Parse(args []string, prefix, top string, maxDepth int) (*Set, error) {
	s := &Set{MaxDepth: maxDepth}
	for _, a := range args {
		it, err := parseItem(a, prefix, top)
		if err != nil {
			return nil, err
		}
		s.Items = append(s.Items, it)
	}
	excluded := 0
	for _, it := range s.Items {
		if it.Exclude {
			excluded++
		}
	}
	if excluded == len(s.Items) && (prefix != "" || len(s.Items) > 0) {
		// git implies the current directory, as an item of its own.
		s.Items = append(s.Items, Item{Match: prefix, prefix: len(prefix), nowildcard: len(prefix)})
	}
	return s, nil
}

// magicChars are the characters git reads as short magic after ':'.
const magicChars = "!\"#%&',-/:;<=>@_`~"

func parseItem(elt, prefix, top string) (Item, error) {
	it := Item{Original: elt}
	rest := elt
	if os.Getenv("GIT_LITERAL_PATHSPECS") == "1" {
		it.literal = true
	} else if strings.HasPrefix(elt, ":(") {
		end := strings.IndexByte(elt, ')')
		if end < 0 {
			return it, &Error{fmt.Sprintf("Missing ')' at the end of pathspec magic in '%s'", elt)}
		}
		for _, m := range strings.Split(elt[2:end], ",") {
			switch {
			case m == "":
			case m == "top":
				it.top = true
			case m == "literal":
				it.literal = true
			case m == "glob":
				it.glob = true
			case m == "icase":
				it.icase = true
			case m == "exclude":
				it.Exclude = true
			case strings.HasPrefix(m, "attr:"):
				if it.attrs != nil {
					return it, &Error{"Only one 'attr:' specification is allowed."}
				}
				for _, a := range strings.Fields(m[len("attr:"):]) {
					r := AttrReq{Name: a, State: "set"}
					switch {
					case strings.HasPrefix(a, "-"):
						r = AttrReq{Name: a[1:], State: "unset"}
					case strings.HasPrefix(a, "!"):
						r = AttrReq{Name: a[1:], State: ""}
					case strings.Contains(a, "="):
						r.Name, r.State, _ = strings.Cut(a, "=")
					}
					it.attrs = append(it.attrs, r)
				}
				if it.attrs == nil {
					return it, &Error{"attr spec must not be empty"}
				}
			default:
				return it, &Error{fmt.Sprintf("Invalid pathspec magic '%s' in '%s'", m, elt)}
			}
		}
		rest = elt[end+1:]
	} else if strings.HasPrefix(elt, ":") {
		i := 1
		for ; i < len(elt) && elt[i] != ':'; i++ {
			switch c := elt[i]; {
			case c == '^' || c == '!':
				it.Exclude = true
			case c == '/':
				it.top = true
			case strings.IndexByte(magicChars, c) >= 0:
				return it, &Error{fmt.Sprintf("Unimplemented pathspec magic '%c' in '%s'", c, elt)}
			default:
				goto done
			}
		}
	done:
		if i < len(elt) && elt[i] == ':' {
			i++
		}
		rest = elt[i:]
	}
	if !it.literal {
		switch {
		case os.Getenv("GIT_GLOB_PATHSPECS") == "1":
			it.glob = true
		case os.Getenv("GIT_NOGLOB_PATHSPECS") == "1" && !it.glob:
			it.literal = true
		}
	}
	if os.Getenv("GIT_ICASE_PATHSPECS") == "1" {
		it.icase = true
	}
	if it.literal && it.glob {
		return it, &Error{fmt.Sprintf("%s: 'literal' and 'glob' are incompatible", elt)}
	}
	if it.top {
		it.Match = rest
	} else {
		m, ok := prefixPath(prefix, rest)
		if !ok {
			return it, &Error{fmt.Sprintf("%s: '%s' is outside repository at '%s'", elt, rest, top)}
		}
		it.Match, it.prefix = m, len(prefix)
	}
	if it.literal {
		it.nowildcard = len(it.Match)
	} else {
		it.nowildcard = max(simpleLength(it.Match), it.prefix)
	}
	if !it.glob && it.nowildcard < len(it.Match) && it.Match[it.nowildcard] == '*' && simpleLength(it.Match[it.nowildcard+1:]) == len(it.Match)-it.nowildcard-1 {
		it.oneStar = true
	}
	return it, nil
}

// simpleLength is the length of s's prefix without glob specials.
func simpleLength(s string) int {
	for i := 0; i < len(s); i++ {
		if isGlobSpecial(s[i]) {
			return i
		}
	}
	return len(s)
}

// prefixPath joins prefix and p and normalises the result as git's
// prefix_path_gently does ("./" and "../" resolved, repeated slashes
// collapsed); ok is false for a path above the top.
func prefixPath(prefix, p string) (string, bool) {
	if strings.HasPrefix(p, "/") {
		return "", false
	}
	joined := prefix + p
	var out []string
	trailing := strings.HasSuffix(joined, "/") || strings.HasSuffix(joined, "/.") || joined == "." || strings.HasSuffix(joined, "/..") || joined == ".."
	for _, c := range strings.Split(joined, "/") {
		switch c {
		case "", ".":
		case "..":
			if len(out) == 0 {
				return "", false
			}
			out = out[:len(out)-1]
		default:
			out = append(out, c)
		}
	}
	s := strings.Join(out, "/")
	if trailing && s != "" {
		s += "/"
	}
	return s, true
}

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

// Relative returns path (from the top) as seen from the directory prefix
// ("" or ending in '/'), as git's relative_path writes it: "../" for each
// directory of prefix that path is not under.
func Relative(path, prefix string) string {
	if path == "" {
		return "./"
	}
	if prefix == "" {
		return path
	}
	i := 0
	common := 0 // bytes of the directories both share
	for i < len(prefix) && i < len(path) && prefix[i] == path[i] {
		if prefix[i] == '/' {
			common = i + 1
		}
		i++
	}
	if i == len(prefix) {
		common = i // path is under prefix
	}
	var b strings.Builder
	for _, c := range prefix[common:] {
		if c == '/' {
			b.WriteString("../")
		}
	}
	rest := path[common:]
	if b.Len() == 0 && rest == "" {
		return "./"
	}
	b.WriteString(rest)
	return b.String()
}
