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
