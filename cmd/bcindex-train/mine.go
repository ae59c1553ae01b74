package main

import (
	"context"
	"encoding/gob"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"sync"

	"github.com/bcindex/bcindex/train"
)

// sourceFiles lists the source files of one fetched package in the
// languages langs (nil: all the miner reads), sorted.
func sourceFiles(s source, dir string, langs map[string]bool) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if skipDir(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() && train.IsSourceFile(d.Name()) && (langs == nil || langs[train.SourceLang(d.Name())]) && s.keepPath(rel) {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	return files, err
}

// skipDir reports whether a directory of a package is left out. Vendored
// copies are other packages' code (setuptools carries pyparsing and
// more_itertools in _vendor), which may be held out or in the quality suite.
func skipDir(name string) bool {
	switch name {
	case "vendor", "_vendor", "vendored", "_vendored", "node_modules", "testdata", "third_party", "__pycache__", ".git",
		"3rdparty", "thirdparty", "third-party", "bundled", ".pc":
		return true
	}
	return false
}

// mineSource mines every file of one package with a few workers, keeping
// the file order so that the result is reproducible.
func mineSource(ctx context.Context, s source, dir string, langs map[string]bool) ([]train.Unit, error) {
	files, err := sourceFiles(s, dir, langs)
	if err != nil {
		return nil, fmt.Errorf("mine %s: %w", s, err)
	}
	units := make([]train.Unit, len(files))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				data, err := os.ReadFile(files[i])
				if err != nil || len(data) > train.MaxFileBytes {
					continue
				}
				rel, err := filepath.Rel(dir, files[i])
				if err != nil {
					continue
				}
				rel = filepath.ToSlash(rel)
				units[i] = train.MineFile(rel, data)
				units[i].Dir = path.Dir(rel)
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
	var pairs []train.Pair
	var evals []train.EvalSet
	seen := map[uint64]bool{}
	perQuery := map[string]int{}
	for i, s := range srcs {
		units, err := mineSource(ctx, s, dirs[i], o.langSet())
		if err != nil {
			return err
		}
		if s.Split == "eval" {
			evals = append(evals, train.BuildEvalSets(s.Name, units)...)
			continue
		}
		n, named := 0, 0
		for _, u := range units {
			// In text order: which copies of a repeated query are kept must
			// not depend on map order.
			for _, j := range train.SortedKeys(u.Queries) {
				q, code := u.Queries[j], u.Texts[j]
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
				pairs = append(pairs, train.Pair{Lang: u.Lang, Src: s.Name, Dir: u.Dir, Query: q, Code: code})
				n++
			}
			for _, nm := range u.Named {
				// A name is kept at most 3 times per kind and language:
				// "new client" is defined in every other package.
				h := fnv.New64a()
				h.Write([]byte(nm.Kind))
				h.Write([]byte{0})
				h.Write([]byte(nm.Code))
				k := h.Sum64()
				qk := nm.Kind + "\x00" + u.Lang + "\x00" + nm.Query
				if seen[k] || perQuery[qk] >= 3 {
					continue
				}
				seen[k] = true
				perQuery[qk]++
				pairs = append(pairs, train.Pair{Lang: u.Lang, Src: s.Name, Dir: u.Dir, Query: nm.Query, Code: nm.Code, Kind: nm.Kind})
				named++
			}
		}
		logf("mined %s: %d files, %d doc pairs, %d name and path pairs", s, len(units), n, named)
	}
	// A query that is also a held-out or quality-suite query leaves
	// training (copied code).
	held := map[string]bool{}
	for _, e := range evals {
		for _, q := range e.Queries {
			held[q] = true
		}
	}
	if err := suiteQueries(ctx, o, held); err != nil {
		return err
	}
	kept := pairs[:0]
	for _, p := range pairs {
		if p.Kind != train.KindDoc || !held[p.Query] {
			kept = append(kept, p)
		}
	}
	logf("dropped %d train pairs whose query is a held-out or suite query", len(pairs)-len(kept))
	pairs = kept
	// Map iteration above is unordered: sort for a reproducible corpus.
	sort.SliceStable(pairs, func(a, b int) bool {
		if pairs[a].Src != pairs[b].Src {
			return pairs[a].Src < pairs[b].Src
		}
		if pairs[a].Kind != pairs[b].Kind {
			return pairs[a].Kind < pairs[b].Kind
		}
		if pairs[a].Query != pairs[b].Query {
			return pairs[a].Query < pairs[b].Query
		}
		return pairs[a].Code < pairs[b].Code
	})
	langs := map[string]map[string]int{}
	for _, p := range pairs {
		k := p.Kind
		if k == train.KindDoc {
			k = "doc"
		}
		if langs[k] == nil {
			langs[k] = map[string]int{}
		}
		langs[k][p.Lang]++
	}
	logf("train pairs: %d %v", len(pairs), langs)
	if err := writeGob(filepath.Join(o.cache, "train.gob"), pairs); err != nil {
		return err
	}
	for _, e := range evals {
		logf("eval %s (%s): %d docs, %d queries", e.Name, e.Lang, len(e.Docs), len(e.Queries))
	}
	return writeGob(filepath.Join(o.cache, "eval.gob"), evals)
}

// suiteQueries adds to held the doc queries of every quality-suite
// package, fetching them if needed.
func suiteQueries(ctx context.Context, o options, held map[string]bool) error {
	all, err := readAllSources(o.sources)
	if err != nil {
		return err
	}
	var suite []source
	for _, s := range all {
		if isSuite(s.Split) {
			suite = append(suite, s)
		}
	}
	dirs, err := fetch(ctx, o.cache, suite, func(string, ...any) {})
	if err != nil {
		return err
	}
	for i, s := range suite {
		units, err := mineSource(ctx, s, dirs[i], nil)
		if err != nil {
			return err
		}
		for _, u := range units {
			for _, q := range u.Queries {
				held[q] = true
			}
		}
	}
	return nil
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
