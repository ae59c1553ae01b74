package tokens

import (
	"regexp"
	"strings"
)

// The baseline's keywords are semble's: the query's words of three
// letters or more that are not stop words, each once, in order.

var word = regexp.MustCompile(`[a-zA-Z][a-zA-Z0-9]*`)

var stopwords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an and are as at be by for from has have how i in is it of on or that the this to was what when where which who why with
		does do did done get gets set sets use uses used using into out via per not but its can nor so yet both either neither than then
		will would could should may might been being had they all any each few more most other some such only own same too very just
		about after also before between during into through under up down over there these those them their our your you we he she`) {
		stopwords[w] = true
	}
}

// keywords returns the query's keywords.
func keywords(q string) []string {
	seen := map[string]bool{}
	var out []string
	for _, w := range word.FindAllString(q, -1) {
		lw := strings.ToLower(w)
		if len(lw) >= 3 && !stopwords[lw] && !seen[lw] {
			seen[lw] = true
			out = append(out, w)
		}
	}
	return out
}
