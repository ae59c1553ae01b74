package main

import (
	"bytes"
	"context"
	"encoding/gob"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/bcindex/bcindex/chunk"
)

// A pair is one (query, code) training example.
type pair struct {
	Lang, Src   string
	Query, Code string
}

// An evalSet is one held-out package: every chunk of it is a document, and
// each documented function yields a query whose answer is its chunk.
type evalSet struct {
	Name, Lang string
	Docs       []string
	Queries    []string
	Targets    []int
}

// maxFileBytes skips files that are nearly always generated or bundled.
const maxFileBytes = 1 << 20

// unit is what mining one file yields: the chunks in index order, and for
// each documented function its query.
type unit struct {
	lang    string
	texts   []string
	queries map[int]string
}

// mineFile chunks one file. Function and method chunks lose their doc (the
// query must not be found verbatim in its answer); other chunks are kept as
// the index would embed them.
func mineFile(path string, content []byte) unit {
	if bytes.Contains(content[:min(len(content), 1024)], []byte("Code generated")) ||
		bytes.Contains(content[:min(len(content), 1024)], []byte("DO NOT EDIT")) {
		return unit{}
	}
	if strings.HasSuffix(path, ".java") {
		u := unit{lang: "java", queries: map[int]string{}}
		for _, d := range splitJava(content) {
			if q := firstSentence(d.doc); q != "" {
				u.queries[len(u.texts)] = q
			}
			u.texts = append(u.texts, d.code)
		}
		return u
	}
	f := chunk.Split(path, content)
	if f.Fallback {
		return unit{}
	}
	u := unit{lang: f.Language, queries: map[int]string{}}
	for i, c := range f.Chunks {
		text := chunk.IndexText(content, f, i)
		if text == "" {
			continue
		}
		isFunc := c.Kind == chunk.KindFunction || c.Kind == chunk.KindMethod
		if isFunc {
			if f.Language == "python" {
				if c.Doc != "" {
					text = stripDocstring(text)
				}
			} else {
				text = stripLeadingComments(text)
			}
		}
		if isFunc && c.Doc != "" {
			if q := firstSentence(c.Doc); q != "" {
				u.queries[len(u.texts)] = q
			}
		}
		u.texts = append(u.texts, text)
	}
	return u
}

// sourceFiles lists the source files of one fetched package, sorted.
func sourceFiles(s source, dir string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			switch d.Name() {
			case "vendor", "node_modules", "testdata", "third_party", "__pycache__", ".git":
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() && isSourceFile(d.Name()) && s.keepPath(rel) {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	return files, err
}

// mineSource mines every file of one package with a few workers, keeping
// the file order so that the result is reproducible.
func mineSource(ctx context.Context, s source, dir string) ([]unit, error) {
	files, err := sourceFiles(s, dir)
	if err != nil {
		return nil, fmt.Errorf("mine %s: %w", s, err)
	}
	units := make([]unit, len(files))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				data, err := os.ReadFile(files[i])
				if err != nil || len(data) > maxFileBytes {
					continue
				}
				units[i] = mineFile(files[i], data)
			}
		}()
	}
	for i := range files {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	return units, ctx.Err()
}

func runMine(ctx context.Context, o options) error {
	srcs, err := readSources(o.sources)
	if err != nil {
		return err
	}
	dirs, err := fetch(ctx, o.cache, srcs, func(string, ...any) {})
	if err != nil {
		return err
	}
	var train []pair
	var evals []evalSet
	seen := map[uint64]bool{}
	perQuery := map[string]int{}
	for i, s := range srcs {
		units, err := mineSource(ctx, s, dirs[i])
		if err != nil {
			return err
		}
		if s.Split == "eval" {
			evals = append(evals, buildEvalSets(s, units)...)
			continue
		}
		n := 0
		for _, u := range units {
			// In text order: which copies of a repeated query are kept must
			// not depend on map order.
			for _, j := range sortedKeys(u.queries) {
				q, code := u.queries[j], u.texts[j]
				h := fnv.New64a()
				h.Write([]byte(q))
				h.Write([]byte{0})
				h.Write([]byte(code))
				k := h.Sum64()
				// Generated code repeats the same doc thousands of times.
				if seen[k] || perQuery[q] >= 3 || len(code) < 20 {
					continue
				}
				seen[k] = true
				perQuery[q]++
				train = append(train, pair{Lang: u.lang, Src: s.Name, Query: q, Code: code})
				n++
			}
		}
		logf("mined %s: %d files, %d pairs", s, len(units), n)
	}
	// A query that is also a held-out query leaves training (copied code).
	held := map[string]bool{}
	for _, e := range evals {
		for _, q := range e.Queries {
			held[q] = true
		}
	}
	kept := train[:0]
	for _, p := range train {
		if !held[p.Query] {
			kept = append(kept, p)
		}
	}
	logf("dropped %d train pairs whose query is a held-out query", len(train)-len(kept))
	train = kept
	// Map iteration above is unordered: sort for a reproducible corpus.
	sort.SliceStable(train, func(a, b int) bool {
		if train[a].Src != train[b].Src {
			return train[a].Src < train[b].Src
		}
		if train[a].Query != train[b].Query {
			return train[a].Query < train[b].Query
		}
		return train[a].Code < train[b].Code
	})
	langs := map[string]int{}
	for _, p := range train {
		langs[p.Lang]++
	}
	logf("train pairs: %d %v", len(train), langs)
	if err := writeGob(filepath.Join(o.cache, "train.gob"), train); err != nil {
		return err
	}
	for _, e := range evals {
		logf("eval %s (%s): %d docs, %d queries", e.Name, e.Lang, len(e.Docs), len(e.Queries))
	}
	return writeGob(filepath.Join(o.cache, "eval.gob"), evals)
}

// buildEvalSets makes one evaluation set per language of a held-out package.
// Queries that occur twice in a set are dropped: their answer is ambiguous.
func buildEvalSets(s source, units []unit) []evalSet {
	byLang := map[string]*evalSet{}
	count := map[string]int{}
	for _, u := range units {
		for _, q := range u.queries {
			count[u.lang+"\x00"+q]++
		}
	}
	for _, u := range units {
		if u.lang == "" {
			continue
		}
		lang := u.lang
		if lang == "typescript" || lang == "tsx" {
			lang = "javascript"
		}
		e := byLang[lang]
		if e == nil {
			e = &evalSet{Name: s.Name, Lang: lang}
			byLang[lang] = e
		}
		base := len(e.Docs)
		e.Docs = append(e.Docs, u.texts...)
		for _, j := range sortedKeys(u.queries) {
			q := u.queries[j]
			if count[u.lang+"\x00"+q] == 1 {
				e.Queries = append(e.Queries, q)
				e.Targets = append(e.Targets, base+j)
			}
		}
	}
	var out []evalSet
	for _, e := range byLang {
		if len(e.Queries) > 0 {
			out = append(out, *e)
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Lang < out[b].Lang })
	return out
}

func sortedKeys(m map[int]string) []int {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	return keys
}

func writeGob(path string, v any) error {
	f, err := os.Create(path + ".tmp")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := gob.NewEncoder(f).Encode(v); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return os.Rename(path+".tmp", path)
}

func readGob(path string, v any) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	defer f.Close()
	if err := gob.NewDecoder(f).Decode(v); err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	return nil
}
