package exact

import (
	"bytes"
	"math/rand/v2"
	"regexp"
	"strings"
	"unicode/utf8"
)

// genCase is one generated pattern: fixed (compared with git grep -F) or a
// regex in the syntax RE2 and PCRE share (compared with git grep -P).
type genCase struct {
	pattern string
	fixed   bool
}

// generator draws patterns from the corpus's own lines.
type generator struct {
	rng       *rand.Rand
	lines     []string // valid UTF-8 lines with some text
	nonASCII  []string // those of them that hold non-ASCII runes
	backslash []string // those of them that hold a backslash
}

func newGenerator(seed uint64, files []corpusFile) *generator {
	g := &generator{rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
	for _, f := range files {
		if isBinary(f.content) {
			continue
		}
		for _, l := range bytes.Split(f.content, []byte("\n")) {
			s := strings.TrimRight(string(l), "\r")
			if len(strings.TrimSpace(s)) < 4 || len(s) > 400 || !utf8.ValidString(s) {
				continue
			}
			g.lines = append(g.lines, s)
			if !isASCII(s) {
				g.nonASCII = append(g.nonASCII, s)
			}
			if strings.Contains(s, "\\") {
				g.backslash = append(g.backslash, s)
			}
		}
	}
	return g
}

// line picks a line, a non-ASCII one one time in eight.
func (g *generator) line() string {
	if len(g.nonASCII) > 0 && g.rng.IntN(8) == 0 {
		return g.nonASCII[g.rng.IntN(len(g.nonASCII))]
	}
	return g.lines[g.rng.IntN(len(g.lines))]
}

// substring picks 1–max bytes of s on rune boundaries, preferring starts
// at a word or punctuation.
func (g *generator) substring(s string, max int) string {
	runes := []rune(s)
	i := g.rng.IntN(len(runes))
	for tries := 0; tries < 3 && i > 0 && isWord(byte(runes[i-1])) && runes[i-1] < utf8.RuneSelf; tries++ {
		i = g.rng.IntN(len(runes))
	}
	return g.prefix(runes[i:], max)
}

// prefix is 1–max bytes from the start of runes, on a rune boundary.
func (g *generator) prefix(runes []rune, max int) string {
	n := 1 + g.rng.IntN(max)
	var b strings.Builder
	for _, r := range runes {
		if b.Len()+utf8.RuneLen(r) > n {
			break
		}
		b.WriteRune(r)
	}
	if b.Len() == 0 {
		return string(runes[0])
	}
	return b.String()
}

// fixed is a literal of 1–40 bytes from a line; one time in eight it
// holds non-ASCII text, one time in eight a backslash.
func (g *generator) fixed() genCase {
	switch g.rng.IntN(8) {
	case 0:
		return genCase{pattern: g.around(g.nonASCII, func(r rune) bool { return r >= utf8.RuneSelf }), fixed: true}
	case 1:
		return genCase{pattern: g.around(g.backslash, func(r rune) bool { return r == '\\' }), fixed: true}
	}
	return genCase{pattern: g.substring(g.line(), 40), fixed: true}
}

// around is up to 40 bytes of a line from pool starting at most three
// runes before a rune that is special.
func (g *generator) around(pool []string, special func(rune) bool) string {
	runes := []rune(pool[g.rng.IntN(len(pool))])
	var at []int
	for i, r := range runes {
		if special(r) {
			at = append(at, i)
		}
	}
	return g.prefix(runes[max(0, at[g.rng.IntN(len(at))]-g.rng.IntN(4)):], 40)
}

var (
	wordRE  = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)
	digitRE = regexp.MustCompile(`[0-9]+`)
	spaceRE = regexp.MustCompile(`[ \t]+`)
)

// regex turns a piece of a line into a regex: literal parts quoted, then
// some of its words, digits and blanks generalised, and anchors,
// alternation, classes and repetition added.
func (g *generator) regex() genCase {
	src := g.substring(g.line(), 30)
	var b strings.Builder
	for len(src) > 0 {
		loc := wordRE.FindStringIndex(src)
		kind := "word"
		for _, alt := range []struct {
			re   *regexp.Regexp
			kind string
		}{{digitRE, "digit"}, {spaceRE, "space"}} {
			if l := alt.re.FindStringIndex(src); l != nil && (loc == nil || l[0] < loc[0]) {
				loc, kind = l, alt.kind
			}
		}
		if loc == nil {
			b.WriteString(quote(src))
			break
		}
		b.WriteString(quote(src[:loc[0]]))
		b.WriteString(g.generalise(src[loc[0]:loc[1]], kind))
		src = src[loc[1]:]
	}
	p := b.String()
	switch g.rng.IntN(10) {
	case 0:
		p = `^\s*` + p
	case 1:
		p = "^" + p
	case 2:
		p += "$"
	case 3:
		p += `.*$`
	case 4:
		other := quote(g.substring(g.line(), 8))
		p = "(?:" + p + "|" + other + ")"
	case 5:
		p = `\b` + p
	}
	return genCase{pattern: p}
}

// generalise rewrites one token of the source, or quotes it as it is.
func (g *generator) generalise(tok, kind string) string {
	r := g.rng.IntN(12)
	switch kind {
	case "space":
		return [...]string{`\s+`, ` +`, `\s*`, `[ \t]+`, `\s`, quote(tok)}[r%6]
	case "digit":
		return [...]string{`\d+`, `[0-9]+`, `\d`, `[0-9]{1,3}`, quote(tok)}[r%5]
	}
	switch r {
	case 0:
		return `\w+`
	case 1:
		return `[A-Za-z_]\w*`
	case 2:
		return "(" + quote(tok) + "|" + quote(strings.ToUpper(tok)) + ")"
	case 3:
		return `[a-z]+`
	case 4:
		return `[^ ]+?`
	case 5:
		return quote(tok[:1]) + ".*" + quote(tok[len(tok)-1:])
	case 6:
		return quote(tok[:1]) + `[[:alnum:]]{0,12}`
	case 7:
		return quote(tok) + "?"
	case 8:
		return `[A-Z]` + `[a-z]*`
	}
	return quote(tok)
}

// quote escapes regex metacharacters with backslashes, which RE2 and PCRE
// read alike.
func quote(s string) string { return regexp.QuoteMeta(s) }
