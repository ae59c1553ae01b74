package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bcindex/bcindex/chunk"
	"github.com/bcindex/bcindex/chunk/vocab"
	"github.com/bcindex/bcindex/train"
)

// The suite subcommand prepares the search quality suite (search/suite_test.go)
// from the suite-dev and suite-test entries of sources.txt: for each package,
// its source files as published (kept/) and with every function's doc
// removed (stripped/), its documentation (prose/, suite_prose.go), and its
// queries: a documented function's first doc sentence, answered by that
// function, and the names defined once in the package, answered by their
// definition. internal/testkit/suite.FormatVersion names this layout.

// suiteQuery is one query and the definition that answers it.
type suiteQuery struct {
	Query string `json:"query"`
	Path  string `json:"path"`
	Name  string `json:"name"`
}

// suitePackage is one package of the suite as written to suite.json.
type suitePackage struct {
	Name  string       `json:"name"`
	Split string       `json:"split"` // suite-dev or suite-test
	Lang  string       `json:"lang"`
	Dir   string       `json:"dir"` // under the output directory: kept/, stripped/ and prose/
	Files int          `json:"files"`
	Doc   []suiteQuery `json:"doc"`
	Names []suiteQuery `json:"names"`
}

func runSuite(ctx context.Context, o options) error {
	all, err := readAllSources(o.sources)
	if err != nil {
		return err
	}
	if _, err := readSources(o.sources); err != nil {
		return err // the guard against training on the suite
	}
	var srcs []source
	for _, s := range all {
		if isSuite(s.Split) {
			srcs = append(srcs, s)
		}
	}
	if err := os.MkdirAll(o.cache, 0o755); err != nil {
		return fmt.Errorf("suite: %w", err)
	}
	dirs, err := fetch(ctx, o.cache, srcs, logf)
	if err != nil {
		return err
	}
	var pkgs []suitePackage
	for i, s := range srcs {
		p, err := writeSuitePackage(s, dirs[i], filepath.Join(o.out, s.dirName()+"-"+s.Split))
		if err != nil {
			return err
		}
		p.Dir = s.dirName() + "-" + s.Split
		prose, err := writeProse(dirs[i], filepath.Join(o.out, p.Dir, "prose"))
		if err != nil {
			return fmt.Errorf("%s: %w", s, err)
		}
		logf("suite %s (%s, %s): %d files, %d documentation files, %d doc queries, %d names", s, p.Split, p.Lang, p.Files, prose, len(p.Doc), len(p.Names))
		pkgs = append(pkgs, p)
	}
	data, err := json.MarshalIndent(pkgs, "", " ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(o.out, "suite.json"), data, 0o644); err != nil {
		return fmt.Errorf("suite: %w", err)
	}
	return nil
}

// suiteLangs are the languages a suite package is read in: the miner's
// languages when the suite was frozen, so that mining more languages
// leaves the suite's files and queries (and its golden scores) as they are.
var suiteLangs = map[string]bool{"go": true, "python": true, "javascript": true, "java": true, "rust": true, "ruby": true, "php": true}

// writeSuitePackage writes one package's two variants under out and
// returns its queries.
func writeSuitePackage(s source, dir, out string) (suitePackage, error) {
	p := suitePackage{Name: s.Name, Split: s.Split}
	files, err := sourceFiles(s, dir, suiteLangs)
	if err != nil {
		return p, err
	}
	langs := map[string]int{}
	defs := map[string]int{}
	var names []suiteQuery
	seenQ := map[string]int{}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil || len(data) > train.MaxFileBytes {
			continue
		}
		rel, _ := filepath.Rel(dir, file)
		rel = filepath.ToSlash(rel)
		f := chunk.Split(rel, data)
		if f.Fallback {
			continue
		}
		langs[f.Language]++
		p.Files++
		test := isTestFile(rel)
		var cut [][2]int
		for _, c := range f.Chunks {
			if c.Kind == vocab.KindFile || c.Kind == vocab.KindBlock || c.Name == "" {
				continue
			}
			defs[c.Name]++
			if c.Kind != vocab.KindFunction && c.Kind != vocab.KindMethod {
				continue
			}
			if !test {
				names = append(names, suiteQuery{Query: c.Name, Path: rel, Name: c.Name})
			}
			if c.Doc == "" {
				continue
			}
			if r, ok := docRange(f.Language, data, c); ok {
				cut = append(cut, r)
			}
			q := strings.TrimPrefix(train.FirstSentence(c.Doc), c.Name+" ")
			if test || len(strings.Fields(q)) < 4 {
				continue
			}
			seenQ[q]++
			p.Doc = append(p.Doc, suiteQuery{Query: q, Path: rel, Name: c.Name})
		}
		for _, v := range []struct {
			name string
			data []byte
		}{{"kept", data}, {"stripped", cutRanges(data, cut)}} {
			dst := filepath.Join(out, v.name, filepath.FromSlash(rel))
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return p, fmt.Errorf("suite: %w", err)
			}
			if err := os.WriteFile(dst, v.data, 0o644); err != nil {
				return p, fmt.Errorf("suite: %w", err)
			}
		}
	}
	for l, n := range langs {
		if n > langs[p.Lang] || n == langs[p.Lang] && l < p.Lang {
			p.Lang = l
		}
	}
	// A doc sentence shared by several functions has no one answer.
	doc := p.Doc[:0]
	for _, q := range p.Doc {
		if seenQ[q.Query] == 1 {
			doc = append(doc, q)
		}
	}
	p.Doc = doc
	// An exact-name lookup is only well posed for a name defined once.
	for _, q := range names {
		if defs[q.Name] == 1 {
			p.Names = append(p.Names, q)
		}
	}
	return p, nil
}

// docRange is the byte range of c's doc in data: the comment block its
// chunk starts with, or a Python docstring.
func docRange(lang string, data []byte, c chunk.Chunk) ([2]int, bool) {
	text := string(data[c.StartByte:c.EndByte])
	var rest string
	switch lang {
	case "python":
		rest = train.StripDocstring(stripLeadingHash(text))
	case "ruby":
		rest = stripLeadingHash(text)
	default:
		rest = train.StripLeadingComments(text, false)
	}
	if rest == text {
		return [2]int{}, false
	}
	// The removed part is what the two texts do not share at either end.
	pre := 0
	for pre < len(rest) && rest[pre] == text[pre] {
		pre++
	}
	suf := 0
	for suf < len(rest)-pre && rest[len(rest)-1-suf] == text[len(text)-1-suf] {
		suf++
	}
	return [2]int{c.StartByte + pre, c.EndByte - suf}, true
}

// stripLeadingHash removes the # comment lines (and Ruby's =begin blocks)
// a Python or Ruby definition's chunk starts with.
func stripLeadingHash(s string) string {
	for {
		t := strings.TrimLeft(s, " \t\r\n")
		switch {
		case strings.HasPrefix(t, "#"):
			_, rest, ok := strings.Cut(t, "\n")
			if !ok {
				return ""
			}
			s = rest
		case strings.HasPrefix(t, "=begin"):
			_, rest, ok := strings.Cut(t, "\n=end")
			if !ok {
				return ""
			}
			_, s, _ = strings.Cut(rest, "\n")
		default:
			return t
		}
	}
}

// cutRanges returns data without the given byte ranges.
func cutRanges(data []byte, cut [][2]int) []byte {
	sort.Slice(cut, func(i, j int) bool { return cut[i][0] < cut[j][0] })
	out := make([]byte, 0, len(data))
	at := 0
	for _, r := range cut {
		if r[0] < at {
			r[0] = at
		}
		if r[1] <= r[0] {
			continue
		}
		out = append(out, data[at:r[0]]...)
		at = r[1]
	}
	return append(out, data[at:]...)
}

// isTestFile reports whether a path is a test: its functions are not asked for.
func isTestFile(p string) bool {
	base := filepath.Base(p)
	return strings.HasSuffix(base, "_test.go") || strings.HasPrefix(base, "test_") ||
		strings.Contains(base, ".test.") || strings.Contains(base, ".spec.") || strings.HasSuffix(base, "_spec.rb") ||
		strings.Contains(p, "/test/") || strings.Contains(p, "/tests/") || strings.HasPrefix(p, "test/") || strings.HasPrefix(p, "tests/")
}
