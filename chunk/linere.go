package chunk

import (
	"bytes"
	"regexp"

	"github.com/bcindex/bcindex/internal/lazyre"
)

// lineRe is an import pattern of the form (?m)^\s*keyword…: it matches
// only from a line start, after whitespace, at one of its keywords. Such
// a pattern has no literal prefix, so the regexp package tried it at every
// byte of a file (a sixth of a TypeScript repository's index time);
// findAll tries it only at the line starts where a keyword follows the
// whitespace.
type lineRe struct {
	re       func() *regexp.Regexp // the pattern, as written
	at       func() *regexp.Regexp // the pattern anchored at the text's start
	keywords [][]byte
}

func newLineRe(expr string, keywords ...string) lineRe {
	l := lineRe{re: lazyre.New(expr), at: lazyre.New(`\A(?:` + expr + `)`)}
	for _, k := range keywords {
		l.keywords = append(l.keywords, []byte(k))
	}
	return l
}

// findAll returns what l.re().FindAllSubmatch(src, -1) does. A match
// starts at a line start p (where (?m)^ holds); \s* then reaches the first
// byte that is not \s, where a keyword must start. Matches are found
// leftmost first and do not overlap, so after one the next is looked for
// from the first line start at or after its end; the pattern, anchored at
// p, matches src[p:] as it matches src from p (^ holds at both, $ and the
// end of the text are the same).
func (l lineRe) findAll(src []byte) [][][]byte {
	var out [][][]byte
	for p := 0; p < len(src); {
		q := p
		for q < len(src) && isRESpace(src[q]) {
			q++
		}
		if l.keywordAt(src[q:]) {
			if m := l.at().FindSubmatchIndex(src[p:]); m != nil && m[1] > 0 {
				sub := make([][]byte, len(m)/2)
				for k := range sub {
					if m[2*k] >= 0 {
						sub[k] = src[p+m[2*k] : p+m[2*k+1] : p+m[2*k+1]]
					}
				}
				out = append(out, sub)
				end := p + m[1]
				if src[end-1] == '\n' {
					p = end
					continue
				}
				p = end
			}
		}
		i := bytes.IndexByte(src[p:], '\n')
		if i < 0 {
			break
		}
		p += i + 1
	}
	return out
}

func (l lineRe) keywordAt(b []byte) bool {
	for _, k := range l.keywords {
		if bytes.HasPrefix(b, k) {
			return true
		}
	}
	return false
}

// isRESpace reports whether c is in \s of package regexp: [\t\n\f\r ].
func isRESpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}
