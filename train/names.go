package train

import (
	"path"
	"strings"

	"github.com/bcindex/bcindex/chunk"
	"github.com/bcindex/bcindex/chunk/vocab"
	"github.com/bcindex/bcindex/embed"
)

// The kinds of training pair. Every language has definitions and files in
// quantity, documented or not, so besides (doc sentence, code) the miner
// makes pairs whose query is a name the code was given by its author: a
// definition's name in words answered by its body without the name, and a
// file's path in words answered by the file's own text without its stem.
const (
	KindDoc  = ""     // first doc sentence → the function without its doc (the zero value: corpora mined before kinds)
	KindName = "name" // a definition's name in words → its text with the name masked
	KindPath = "path" // a file's directory and stem in words → the file chunk's text with the stem masked
)

// minNameTokens is the fewest sub-tokens, and minNameLines the fewest
// lines, a masked text keeps: less is an accessor or a declaration whose
// body says nothing the name did not.
const (
	minNameTokens = 12
	minNameLines  = 3
)

// A Named is a pair the miner makes from a name rather than a doc.
type Named struct {
	Kind, Query, Code string
}

// definitionKinds are the chunks a name pair is made of.
var definitionKinds = map[string]bool{
	vocab.KindFunction: true, vocab.KindMethod: true, vocab.KindClass: true, vocab.KindStruct: true,
	vocab.KindInterface: true, vocab.KindEnum: true, vocab.KindTrait: true, vocab.KindType: true,
	vocab.KindModule: true,
}

// namePairs makes the name pairs of a split file: for each definition
// whose name spells at least two sub-tokens (a method's parent's name
// fills in for a one-word name), the name's words and the definition's
// text with its doc removed and every occurrence of its name masked. Test
// files and test functions are skipped: their names describe a test.
func namePairs(p string, content []byte, f chunk.File) []Named {
	if isTestPath(p) {
		return nil
	}
	var out []Named
	for i, c := range f.Chunks {
		if !definitionKinds[c.Kind] || c.Name == "" {
			continue
		}
		base := lastSegment(c.Name)
		words := embed.Tokens(c.Name)
		if len(words) == 0 || words[0] == "test" || words[0] == "bench" || words[0] == "benchmark" {
			continue
		}
		if len(words) < 2 && c.Parent > 0 {
			if pc := f.Chunks[c.Parent]; definitionKinds[pc.Kind] {
				words = append(embed.Tokens(pc.Name), words...)
			}
		}
		if len(words) < 2 {
			continue
		}
		text := vocab.IndexText(content, f, i)
		if text == "" {
			continue
		}
		text = maskIdent(stripDoc(text, f.Language), base)
		if len(embed.Tokens(text)) < minNameTokens || strings.Count(strings.TrimSpace(text), "\n")+1 < minNameLines {
			continue
		}
		out = append(out, Named{Kind: KindName, Query: strings.Join(words, " "), Code: text})
	}
	return out
}

// pathPair makes the path pair of a split file, p relative to its
// package: the words of the directory's last part (unless it only says where
// sources live or carries a version) and of the file's stem, answered by the file chunk's text
// (or, when windows carry it, the first window's) with the stem masked.
func pathPair(p string, content []byte, f chunk.File) (Named, bool) {
	if isTestPath(p) || len(f.Chunks) == 0 {
		return Named{}, false
	}
	stem := path.Base(p)
	if i := strings.IndexByte(stem, '.'); i > 0 {
		stem = stem[:i]
	}
	words := embed.Tokens(stem)
	if len(words) == 0 || genericStem[strings.Join(words, "")] {
		return Named{}, false
	}
	if d := path.Base(path.Dir(p)); d != "." && d != "/" && !genericDir[strings.ToLower(d)] && !strings.ContainsAny(d, "0123456789") {
		words = append(embed.Tokens(d), words...)
	}
	text := vocab.IndexText(content, f, 0)
	if text == "" {
		for i, c := range f.Chunks {
			if c.Kind == vocab.KindWindow && c.Parent == 0 {
				text = vocab.IndexText(content, f, i)
				break
			}
		}
	}
	text = maskStem(text, stem)
	if len(embed.Tokens(text)) < minNameTokens {
		return Named{}, false
	}
	return Named{Kind: KindPath, Query: strings.Join(words, " "), Code: text}, true
}

// genericStem are file stems that name no behaviour.
var genericStem = map[string]bool{
	"index": true, "main": true, "mod": true, "lib": true, "init": true, "utils": true, "util": true,
	"helpers": true, "common": true, "types": true, "setup": true, "conftest": true, "version": true,
	"constants": true, "app": true, "package": true, "module": true, "doc": true,
}

// genericDir are directories that say where sources live, not what they do.
var genericDir = map[string]bool{
	"src": true, "lib": true, "source": true, "sources": true, "main": true, "java": true, "kotlin": true,
	"scala": true, "internal": true, "pkg": true, "include": true, "usr": true, "share": true,
	"dist-packages": true, "site-packages": true, "python3": true, "php": true, "ruby": true,
	"vendor_ruby": true, "rust": true, "go": true, "core": true, "impl": true, "common": true,
}

// isTestPath reports whether a file is a test by the usual layouts and
// names.
func isTestPath(p string) bool {
	low := strings.ToLower(p)
	for _, d := range strings.Split(path.Dir(low), "/") {
		switch d {
		case "test", "tests", "testing", "spec", "specs", "__tests__", "testsuite", "unittest", "unittests", "androidtest":
			return true
		}
	}
	base := path.Base(p)
	stem := base
	if i := strings.IndexByte(base, '.'); i > 0 {
		stem = base[:i]
	}
	for _, suf := range []string{"Test", "Tests", "Spec", "_test", "_tests", "_spec", "-test", "-spec"} {
		if strings.HasSuffix(stem, suf) {
			return true
		}
	}
	low = strings.ToLower(base)
	return strings.HasPrefix(low, "test_") || strings.Contains(low, ".test.") || strings.Contains(low, ".spec.")
}

// lastSegment is a qualified name's own part: "lexer.scan" → "scan",
// "Foo::bar" → "bar".
func lastSegment(name string) string {
	if i := strings.LastIndexAny(name, ".:>#"); i >= 0 && i+1 < len(name) {
		return name[i+1:]
	}
	return name
}

// isIdentByte reports whether c continues an identifier.
func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c >= 0x80
}

// maskIdent replaces every whole-identifier occurrence of name in text by
// a space.
func maskIdent(text, name string) string {
	return maskWords(text, func(w string) bool { return w == name })
}

// maskStem replaces every identifier that spells the stem, whatever its
// case and separators ("retry_policy", "RetryPolicy", "retry-policy").
func maskStem(text, stem string) string {
	key := squash(stem)
	if key == "" {
		return text
	}
	return maskWords(text, func(w string) bool { return squash(w) == key })
}

// squash lowercases s and drops '_' and '-'.
func squash(s string) string {
	s = strings.ToLower(s)
	return strings.NewReplacer("_", "", "-", "").Replace(s)
}

// maskWords replaces each identifier of text for which hit is true by a
// space.
func maskWords(text string, hit func(string) bool) string {
	var b strings.Builder
	last := 0
	for i := 0; i < len(text); {
		if !isIdentByte(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && isIdentByte(text[j]) {
			j++
		}
		if hit(text[i:j]) {
			b.WriteString(text[last:i])
			b.WriteByte(' ')
			last = j
		}
		i = j
	}
	if last == 0 {
		return text
	}
	b.WriteString(text[last:])
	return b.String()
}
