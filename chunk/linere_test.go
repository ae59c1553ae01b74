package chunk

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// lineRes are the import patterns findAll runs.
var lineRes = map[string]lineRe{
	"pyImport": pyImportRe, "pyFrom": pyFromRe, "jsImport": jsImportRe, "dotted": dottedImportRe,
	"rustUse": rustUseRe, "phpUse": phpUseRe, "exAlias": exAliasRe, "csUsing": csUsingRe,
}

// lineReTexts are texts around the patterns' edges: whitespace and blank
// lines before a keyword, a keyword that does not complete a match, matches
// across lines, CRLF, a keyword inside a line, no final newline.
var lineReTexts = []string{
	"", "import", "import x\n", "\n\n  import os, sys\nimport re", "x = 1\n \t\n\fimport a.b as c\r\nfrom . import (a,\n b)\n",
	"import { a, b as c } from 'm'\nimport type T from \"t\"\n  import\n  d from 'e';\nconst x = import('y')\n",
	"  use a::{b, c::D as E};\npub use f::g;\npub(crate) use h;\nuse\n", "use App\\Models\\User as U;\n use X;",
	"alias Foo.Bar, as: Baz\nalias Qux\n", "using System;\nusing static A.B;\nusing C = D.E;\r\n", "importx y\nimport", "fromage\nfrom a import b # c\n",
	"import a\nimport b", "\nimport", "\n\n", "x import y from 'z'\n",
}

// TestLineReMatchesRegexp: findAll gives what FindAllSubmatch gives, on
// edge cases, on real code in every language, and on those texts cut and
// spliced at random.
func TestLineReMatchesRegexp(t *testing.T) {
	texts := append([]string(nil), lineReTexts...)
	for _, rf := range realCorpus(t) {
		texts = append(texts, string(rf.src))
	}
	rng := rand.New(rand.NewPCG(5, 6))
	pieces := []string{"\n", " ", "\t", "\r\n", "import ", "from ", "use ", "using ", "alias ", "pub ", "{", "}", ";", "'", "\"", "as ", "x"}
	for range 3000 {
		var b strings.Builder
		for range 1 + rng.IntN(30) {
			if rng.IntN(3) == 0 {
				s := lineReTexts[rng.IntN(len(lineReTexts))]
				i := rng.IntN(len(s) + 1)
				b.WriteString(s[i:])
			} else {
				b.WriteString(pieces[rng.IntN(len(pieces))])
			}
		}
		texts = append(texts, b.String())
	}
	matches := map[string]int{}
	for _, text := range texts {
		src := []byte(text)
		for name, l := range lineRes {
			want := l.re().FindAllSubmatch(src, -1)
			got := l.findAll(src)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s on %q: %q, the regexp %q", name, text[:min(len(text), 200)], got, want)
			}
			matches[name] += len(got)
		}
	}
	for name := range lineRes {
		if matches[name] < 3 {
			t.Errorf("%s matched %d times: the test does not exercise it", name, matches[name])
		}
	}
}
