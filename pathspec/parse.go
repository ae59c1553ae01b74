package pathspec

import (
	"fmt"
	"os"
	"strings"
)

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
