package pathspec

import "strings"

// Wildmatch flags, as git's wildmatch.h names them.
const (
	wmCaseFold = 1 << iota // letters match either case
	wmPathname             // '*' and '?' do not match '/', and "**/" matches directories
)

const (
	wmMatch = iota
	wmNoMatch
	wmAbortAll
	wmAbortToStarStar
)

// wildmatch matches text against a glob pattern exactly as git's
// wildmatch.c does (it is a port of dowild): '*', '?', bracket
// expressions with '!' or '^', ranges and [:class:], backslash escapes,
// and with wmPathname the rules for '/' and "**".
func wildmatch(pattern, text string, flags int) bool {
	return dowild(pattern, text, flags) == wmMatch
}

// at returns s[i], or 0 past its end: the C code reads NUL there.
func at(s string, i int) byte {
	if i < len(s) {
		return s[i]
	}
	return 0
}

func isGlobSpecial(c byte) bool {
	return c == '*' || c == '?' || c == '[' || c == '\\'
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func dowild(pat, text string, flags int) int {
	p, t := 0, 0
	for ; at(pat, p) != 0; t, p = t+1, p+1 {
		pch := at(pat, p)
		tch := at(text, t)
		if tch == 0 && pch != '*' {
			return wmAbortAll
		}
		if flags&wmCaseFold != 0 {
			tch, pch = lower(tch), lower(pch)
		}
		switch pch {
		case '\\':
			p++
			pch = at(pat, p) // compared as it is, as git does
			if tch != pch {
				return wmNoMatch
			}
			continue
		default:
			if tch != pch {
				return wmNoMatch
			}
			continue
		case '?':
			if flags&wmPathname != 0 && tch == '/' {
				return wmNoMatch
			}
			continue
		case '*':
			matchSlash := false
			p++
			if at(pat, p) == '*' {
				prev := p - 2
				for p++; at(pat, p) == '*'; p++ {
				}
				switch {
				case flags&wmPathname == 0:
					matchSlash = true
				case (prev < 0 || pat[prev] == '/') && (at(pat, p) == 0 || at(pat, p) == '/' || at(pat, p) == '\\' && at(pat, p+1) == '/'):
					if at(pat, p) == '/' && dowild(pat[p+1:], text[t:], flags) == wmMatch {
						return wmMatch
					}
					matchSlash = true
				}
			} else {
				matchSlash = flags&wmPathname == 0
			}
			if at(pat, p) == 0 {
				if !matchSlash && strings.IndexByte(text[t:], '/') >= 0 {
					return wmNoMatch
				}
				return wmMatch
			}
			if !matchSlash && at(pat, p) == '/' {
				i := strings.IndexByte(text[t:], '/')
				if i < 0 {
					return wmNoMatch
				}
				t += i // the loop steps past the slash in both
				continue
			}
			for {
				if tch == 0 {
					break
				}
				if !isGlobSpecial(at(pat, p)) {
					want := at(pat, p)
					if flags&wmCaseFold != 0 {
						want = lower(want)
					}
					for {
						tch = at(text, t)
						if tch == 0 || !matchSlash && tch == '/' {
							break
						}
						if flags&wmCaseFold != 0 {
							tch = lower(tch)
						}
						if tch == want {
							break
						}
						t++
					}
					if tch != want {
						return wmNoMatch
					}
				}
				if m := dowild(pat[p:], text[t:], flags); m != wmNoMatch {
					if !matchSlash || m != wmAbortToStarStar {
						return m
					}
				} else if !matchSlash && tch == '/' {
					return wmAbortToStarStar
				}
				t++
				tch = at(text, t)
			}
			return wmAbortAll
		case '[':
			p++
			pch = at(pat, p)
			negated := pch == '!' || pch == '^'
			if negated {
				p++
				pch = at(pat, p)
			}
			var prev byte
			matched := false
			for {
				if pch == 0 {
					return wmAbortAll
				}
				switch {
				case pch == '\\':
					p++
					pch = at(pat, p)
					if pch == 0 {
						return wmAbortAll
					}
					if tch == pch {
						matched = true
					}
				case pch == '-' && prev != 0 && at(pat, p+1) != 0 && at(pat, p+1) != ']':
					p++
					pch = at(pat, p)
					if pch == '\\' {
						p++
						pch = at(pat, p)
						if pch == 0 {
							return wmAbortAll
						}
					}
					if tch <= pch && tch >= prev {
						matched = true
					} else if flags&wmCaseFold != 0 && 'a' <= tch && tch <= 'z' {
						up := tch - 'a' + 'A'
						if up <= pch && up >= prev {
							matched = true
						}
					}
					pch = 0
				case pch == '[' && at(pat, p+1) == ':':
					s := p + 2
					p = s
					for pch = at(pat, p); pch != 0 && pch != ']'; pch = at(pat, p) {
						p++
					}
					if pch == 0 {
						return wmAbortAll
					}
					if p-s-1 < 0 || pat[p-1] != ':' {
						p = s - 2
						pch = '['
						if tch == pch {
							matched = true
						}
						break
					}
					ok, known := charClass(pat[s:p-1], tch, flags)
					if !known {
						return wmAbortAll
					}
					matched = matched || ok
					pch = 0
				default:
					if tch == pch {
						matched = true
					}
				}
				prev = pch
				p++
				pch = at(pat, p)
				if pch == ']' {
					break
				}
			}
			if matched == negated || flags&wmPathname != 0 && tch == '/' {
				return wmNoMatch
			}
			continue
		}
	}
	if t < len(text) {
		return wmNoMatch
	}
	return wmMatch
}

// charClass tests c against a [:name:] class, ASCII only as git's are.
func charClass(name string, c byte, flags int) (matched, known bool) {
	isAlpha := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
	isDigit := '0' <= c && c <= '9'
	switch name {
	case "alnum":
		return isAlpha || isDigit, true
	case "alpha":
		return isAlpha, true
	case "blank":
		return c == ' ' || c == '\t', true
	case "cntrl":
		return c < 0x20 || c == 0x7f, true
	case "digit":
		return isDigit, true
	case "graph":
		return c > 0x20 && c < 0x7f, true
	case "lower":
		return 'a' <= c && c <= 'z', true
	case "print":
		return c >= 0x20 && c < 0x7f, true
	case "punct":
		return c > 0x20 && c < 0x7f && !isAlpha && !isDigit, true
	case "space":
		return c == ' ' || c >= '\t' && c <= '\r', true
	case "upper":
		return 'A' <= c && c <= 'Z' || flags&wmCaseFold != 0 && 'a' <= c && c <= 'z', true
	case "xdigit":
		return isDigit || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F', true
	}
	return false, false
}
