package search

import (
	"path"
	"slices"
	"strings"

	"github.com/bcindex/bcindex/lexical"
	"github.com/bcindex/bcindex/query"
)

// Two boosts for a query in words, each a share of the best score added
// to a hit (arrange.go): the definitions of code names the sentence
// spells (a CamelCase, camelCase or snake_case word, or pkg.Name), found
// by name wherever they are, arms or not; and the share of the query's
// words that the file's name and its directory hold.

// sentenceNames are the code names a query in words spells
// (spelledNames), of four characters or more; none for a query that is
// itself a name, which the symbol arm looks up.
func sentenceNames(q *query.Query) []string {
	if q.Shape == query.Identifier || q.Shape == query.Qualified || len(q.Words) < 2 {
		return nil
	}
	var out []string
	for _, n := range spelledNames(q) {
		if len(n) >= 4 {
			out = append(out, n)
		}
	}
	return out
}

// nameDefinitions returns the rows named exactly (case and separators
// aside) like one of names.
func (v *view) nameDefinitions(names []string) [][2]int {
	var out [][2]int
	ni := v.nameIndexOf(false)
	for _, n := range names {
		for _, c := range v.symbolMatches(n, ni) {
			if c.score >= symbolExact {
				out = append(out, [2]int{c.seg, c.row})
			}
		}
	}
	return out
}

// queryKeywords are the words of a query in words that can name a file:
// lowercase, three letters or more, not a stop word.
func queryKeywords(q *query.Query) []string {
	if q.Shape == query.Identifier || q.Shape == query.Qualified {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	for _, t := range lexical.Tokens(strings.Join(q.Words, " ")) {
		if len(t) < 3 || pathStopWords[t] || seen[t] {
			continue
		}
		seen[t] = true
		out = append(out, t)
	}
	return out
}

var pathStopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields("the and are for from has have how not was what when where which who why with does into its that this than then them they their when each one all any can use used using way get set") {
		m[w] = true
	}
	return m
}()

// pathWords are a query's keywords (queryKeywords), each with its
// other forms (wordForms), for pathShare.
type pathWords struct {
	words []string
	forms [][]string
}

func newPathWords(keywords []string) pathWords {
	pw := pathWords{words: keywords, forms: make([][]string, len(keywords))}
	for i, k := range keywords {
		pw.forms[i] = wordForms(k)
	}
	return pw
}

// pathShare is the share of the keywords that the file at p holds in its
// name and its directory's name, a word matching another form of itself
// (one word a prefix of the other, four letters or more: config,
// configuration; or a form wordForms gives: dependencies, dependency).
func pathShare(p string, pw pathWords) float64 {
	if len(pw.words) == 0 {
		return 0
	}
	base := path.Base(p)
	parts := lexical.Tokens(strings.TrimSuffix(base, path.Ext(base)))
	if d := path.Base(path.Dir(p)); d != "." && d != "/" {
		parts = append(parts, lexical.Tokens(d)...)
	}
	n := 0
	for i, k := range pw.words {
		for _, pt := range parts {
			short, long := k, pt
			if len(short) > len(long) {
				short, long = long, short
			}
			if k == pt || len(short) >= 4 && strings.HasPrefix(long, short) || slices.Contains(pw.forms[i], pt) {
				n++
				break
			}
		}
	}
	return float64(n) / float64(len(pw.words))
}
