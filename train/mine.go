package train

import (
	"bytes"
	"sort"

	"github.com/bcindex/bcindex/chunk"
	"github.com/bcindex/bcindex/chunk/vocab"
)

// A Pair is one (query, code) training example.
type Pair struct {
	Lang, Src   string
	Dir         string // the file's directory in its package: where hard negatives come from
	Query, Code string
	Kind        string // KindDoc, KindName or KindPath
}

// An EvalSet is one held-out package: every chunk of it is a document, and
// each documented function yields a query whose answer is its chunk.
type EvalSet struct {
	Name, Lang string
	Docs       []string
	Queries    []string
	Targets    []int
}

// MaxFileBytes skips files that are nearly always generated or bundled.
const MaxFileBytes = 1 << 20

// Unit is what mining one file yields: the chunks in index order, and for
// each documented function its query.
type Unit struct {
	Lang    string
	Dir     string // the file's directory, set by the caller
	Texts   []string
	Queries map[int]string
	// Named are the pairs made from names (see KindName, KindPath).
	Named []Named
}

// MineFile chunks one file, path relative to its package (its directory
// and name make the path pair's query). Function and method chunks lose
// their doc (the query must not be found verbatim in its answer); other
// chunks are kept as the index would embed them.
func MineFile(path string, content []byte) Unit {
	if bytes.Contains(content[:min(len(content), 1024)], []byte("Code generated")) ||
		bytes.Contains(content[:min(len(content), 1024)], []byte("DO NOT EDIT")) {
		return Unit{}
	}
	f := chunk.Split(path, content)
	if f.Fallback {
		return Unit{}
	}
	u := Unit{Lang: f.Language, Queries: map[int]string{}}
	for i, c := range f.Chunks {
		text := vocab.IndexText(content, f, i)
		if text == "" {
			continue
		}
		isFunc := c.Kind == vocab.KindFunction || c.Kind == vocab.KindMethod
		if isFunc && (f.Language != "python" || c.Doc != "") {
			text = stripDoc(text, f.Language)
		}
		if isFunc && c.Doc != "" {
			if q := FirstSentence(cleanDoc(c.Doc, c.Name, f.Language)); q != "" {
				u.Queries[len(u.Texts)] = q
			}
		}
		u.Texts = append(u.Texts, text)
	}
	u.Named = namePairs(path, content, f)
	if p, ok := pathPair(path, content, f); ok {
		u.Named = append(u.Named, p)
	}
	return u
}

// BuildEvalSets makes one evaluation set per language of a held-out package.
// Queries that occur twice in a set are dropped: their answer is ambiguous.
func BuildEvalSets(name string, units []Unit) []EvalSet {
	byLang := map[string]*EvalSet{}
	count := map[string]int{}
	for _, u := range units {
		for _, q := range u.Queries {
			count[u.Lang+"\x00"+q]++
		}
	}
	for _, u := range units {
		if u.Lang == "" {
			continue
		}
		lang := u.Lang
		if lang == "typescript" || lang == "tsx" {
			lang = "javascript"
		}
		e := byLang[lang]
		if e == nil {
			e = &EvalSet{Name: name, Lang: lang}
			byLang[lang] = e
		}
		base := len(e.Docs)
		e.Docs = append(e.Docs, u.Texts...)
		for _, j := range SortedKeys(u.Queries) {
			q := u.Queries[j]
			if count[u.Lang+"\x00"+q] == 1 {
				e.Queries = append(e.Queries, q)
				e.Targets = append(e.Targets, base+j)
			}
		}
	}
	var out []EvalSet
	for _, e := range byLang {
		if len(e.Queries) > 0 {
			out = append(out, *e)
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Lang < out[b].Lang })
	return out
}

func SortedKeys(m map[int]string) []int {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	return keys
}
