package search

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/lexical"
	"github.com/bcindex/bcindex/store"
)

// TestPathIndexMatchesScan checks the path fields' counts through the
// path index against the scan of the fields' text and the split of the
// fields that hold a form, for every token of the paths, their words'
// forms and pieces that are not tokens, on paths with capitals, digits,
// dots, hyphens, deep directories and letters beyond ASCII; that a view
// built on a store's view uses the index from its second text arm, built
// once; and that the text arm answers the same with it.
func TestPathIndexMatchesScan(t *testing.T) {
	paths := []string{
		"net/retry.go", "cfg/parse.go", "cfg/config/config.config.go",
		"internal/HTTPServer/ConfigLoader.go", "lib/URLs/IDs/IPv6Parser.go",
		"a/b/c/deep/er/nested/retry_backoff-policy.v2.test.go", "pkg/v1.2.3/parser2json.go",
		"docs/Größe/Über_Datei.go", "日本/テスト/ファイル設定.go", "tests/retry_retries/Retrying.go",
		"x/ParseConfig/parse_config_file.go", "Makefile.go", ".hidden/.config.go", "cmd/retries/retries.go",
	}
	files := map[string]string{}
	for k, p := range paths {
		files[p] = fmt.Sprintf("package p\n\n// F%d retries the parse of a config.\nfunc F%d(retry int) int { return retry + %d }\n", k, k, k)
	}
	r := gittest.New(t)
	r.Commit("init", files)
	repo := openRepo(t, r.Dir)
	run(t, repo, Options{Query: "retry"})
	emb := embed.Default()
	rd := openDefaultStore(t, repo)

	for _, opts := range []Options{{}, {Path: "cfg/"}} {
		opts.Embedder = emb
		v := viewOf(repo, rd.Want.Commits[0], rd, 1, &opts)
		px := newPathIndex(v.added)
		terms := []string{"onfig", "pars", "retr", "zzz", "http", "ipv", "größ", "ファイル", "v1", "json2", "go"}
		for _, b := range v.added {
			for _, tok := range pathField(b.path) {
				terms = append(terms, tok, tok[:min(3, len(tok))])
				terms = append(terms, wordForms(tok)...)
			}
		}
		found := 0
		for _, term := range terms {
			forms := append([]string{term}, wordForms(term)...)
			scan, indexed := v.scanCounts(forms), v.fieldCounts(px, forms)
			if !slices.Equal(scan, indexed) {
				t.Errorf("path %q, %q: by the path index %v; the scan %v", opts.Path, term, indexed, scan)
			}
			found += len(scan)
		}
		if opts.Path == "" && (len(v.added) < len(paths)-1 || found < 100) {
			t.Errorf("%d files, %d fields matched in all; the test needs more", len(v.added), found)
		}
	}

	opts := Options{Query: "retries parse config", Embedder: emb}
	if err := parseQuery(&opts); err != nil {
		t.Fatal(err)
	}
	first := viewOf(repo, rd.Want.Commits[0], rd, 1, &opts)
	if first.pathIndexOf() != nil {
		t.Error("the first text arm on a view built the path index")
	}
	second := viewOf(repo, rd.Want.Commits[0], rd, 1, &opts)
	idx := second.pathIndexOf()
	if idx == nil {
		t.Fatal("the second text arm on a view has no path index")
	}
	if third := viewOf(repo, rd.Want.Commits[0], rd, 1, &opts); third.pathIndexOf() != idx {
		t.Error("the third text arm on a view built another path index")
	}
	for _, terms := range [][]string{{"retries", "parse", "config"}, {"retrying"}, {"httpserver", "loader"}, {"größe"}, {"parser", "json"}} {
		a, ta := second.textArm(terms)
		b, tb := first.textArm(terms)
		if len(b) == 0 || !reflect.DeepEqual(a, b) || ta != tb {
			t.Errorf("%q: the text arm answers %+v with the path index, %+v without", terms, a, b)
		}
	}
}

// TestPathIndexLoose checks the fields a path index cannot vouch for, where
// a token of the path field is no piece of the field's text (a cleaned
// directory reaches back past it): the index keeps one only when its text
// holds a form, as the scan does.
func TestPathIndexLoose(t *testing.T) {
	v := &view{added: []blobRef{
		{path: "alpha/beta/gamma/delta/../../x.go"},
		{path: "alpha/beta/gamma/delta/../../alpha.go"},
		{path: "alpha/beta.go"},
	}}
	px := newPathIndex(v.added)
	if len(px.loose) == 0 {
		t.Fatal("no field is loose")
	}
	for _, term := range []string{"alpha", "beta", "gamma", "delta", "x"} {
		forms := append([]string{term}, wordForms(term)...)
		if scan, indexed := v.scanCounts(forms), v.fieldCounts(px, forms); !slices.Equal(scan, indexed) {
			t.Errorf("%q: by the path index %v; the scan %v", term, indexed, scan)
		}
	}
}

// TestPathIndexConcurrent runs text arms on one store's view at once, so
// that the path index is built while other queries read it (go test
// -race), and checks they all answer as the first, without the index.
func TestPathIndexConcurrent(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", map[string]string{
		"net/retry.go":     gittest.RetryGo,
		"cfg/config.go":    "package cfg\n\n// Load reads the configuration file.\nfunc Load(path string) error { return nil }\n",
		"cfg/retry/tab.go": "package retry\n\n// Table lists the retries.\nvar Table = []int{1, 2}\n",
	})
	repo := openRepo(t, r.Dir)
	run(t, repo, Options{Query: "retry"})
	emb := embed.Default()
	p, err := NewPlan(repo, Options{Embedder: emb})
	if err != nil {
		t.Fatal(err)
	}
	rd, err := store.Open(context.Background(), repo, p.Want, emb.ID())
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	opts := Options{Query: "retry config", Embedder: emb}
	terms := []string{"retry", "config"}
	want, _ := viewOf(repo, rd.Want.Commits[0], rd, 1, &opts).textArm(terms)
	if len(want) == 0 {
		t.Fatal("the text arm found nothing")
	}
	got := make([][]cand, 8)
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() { got[i], _ = viewOf(repo, rd.Want.Commits[0], rd, 1, &opts).textArm(terms) })
	}
	wg.Wait()
	for i, g := range got {
		if !reflect.DeepEqual(g, want) {
			t.Errorf("query %d: %+v; the first %+v", i, g, want)
		}
	}
	if viewOf(repo, rd.Want.Commits[0], rd, 1, &opts).pathIndexOf() == nil {
		t.Error("no path index after nine text arms")
	}
}

// TestPathIndexMatchesScanRepo is TestPathIndexMatchesScan's comparison
// on a repository indexed already (BCINDEX_BENCH_REPO; skipped without):
// every token of its path fields, their words' forms and prefixes; then
// the answers of queries asked three times on one store's view, the path
// index built by the second, against a store opened for each.
func TestPathIndexMatchesScanRepo(t *testing.T) {
	repo, rd, v := openBenchRepoView(t)
	ctx, emb := context.Background(), embed.Default()
	px := newPathIndex(v.added)
	seen := map[string]bool{}
	var terms []string
	add := func(ws ...string) {
		for _, w := range ws {
			if !seen[w] {
				seen[w] = true
				terms = append(terms, w)
			}
		}
	}
	for _, q := range repoBenchQueries {
		add(lexical.Tokens(q)...)
	}
	for _, b := range v.added {
		for _, tok := range pathField(b.path) {
			add(tok, tok[:min(3, len(tok))])
			add(wordForms(tok)...)
		}
	}
	found := 0
	for _, term := range terms {
		forms := append([]string{term}, wordForms(term)...)
		scan, indexed := v.scanCounts(forms), v.fieldCounts(px, forms)
		if !slices.Equal(scan, indexed) {
			t.Errorf("%q: %d fields by the path index, %d by the scan", term, len(indexed), len(scan))
		}
		found += len(scan)
	}
	t.Logf("%d paths, %d terms, %d fields matched, %d loose", len(v.added), len(terms), found, len(px.loose))
	if found == 0 {
		t.Error("no path field matched")
	}

	queries := append(slices.Clone(repoBenchQueries), "close the connection when the context is cancelled",
		"encode a value as json", "walk a directory tree recursively", "ParseDuration", "newReader", "hash a password")
	for _, q := range queries {
		for _, o := range []Options{{}, {Mode: ModeText}, {Files: true}, {Path: "*_test.go"}} {
			o.Query, o.Embedder = q, emb
			want, err := json.Marshal(run(t, repo, o))
			if err != nil {
				t.Fatal(err)
			}
			po, err := NewPlan(repo, o)
			if err != nil {
				t.Fatal(err)
			}
			s := NewSearcher(rd, po)
			for i := range 3 {
				res, err := s.Search(ctx, nil, o)
				if err != nil {
					t.Fatal(err)
				}
				if got, _ := json.Marshal(res); string(got) != string(want) {
					t.Errorf("%q %+v, query %d on the kept view differs from a store opened for it", q, o, i)
				}
			}
		}
	}
}

// BenchmarkPathIndex measures building the path index of a repository
// indexed already (BCINDEX_BENCH_REPO; skipped without), what a view's
// second text arm pays once, and the path fields' counts of the default
// queries' terms by the scan and by the index (every query's, per op).
func BenchmarkPathIndex(b *testing.B) {
	_, _, v := openBenchRepoView(b)
	b.Run("build", func(b *testing.B) {
		defer reportCPU(b, cpuTime())
		for i := 0; i < b.N; i++ {
			newPathIndex(v.added)
		}
	})
	// The path fields' counts of the default queries' terms, per query.
	var forms [][]string
	for _, t := range lexical.Tokens(strings.Join(repoBenchQueries, " ")) {
		forms = append(forms, append([]string{t}, wordForms(t)...))
	}
	v.lowerPaths()
	px := newPathIndex(v.added)
	for _, arm := range []string{"scan", "index"} {
		b.Run(arm, func(b *testing.B) {
			defer reportCPU(b, cpuTime())
			for i := 0; i < b.N; i++ {
				for _, fs := range forms {
					if arm == "scan" {
						v.scanCounts(fs)
					} else {
						v.fieldCounts(px, fs)
					}
				}
			}
			b.ReportMetric(float64(len(forms))/float64(len(repoBenchQueries)), "terms/query")
		})
	}
}

// openBenchRepoView opens the repository BCINDEX_BENCH_REPO names
// (skipping without), its store at the default revision, closed when tb
// ends, and the view of that revision a default query reads.
func openBenchRepoView(tb testing.TB) (*gitindex.Repo, *store.View, *view) {
	dir := os.Getenv("BCINDEX_BENCH_REPO")
	if dir == "" {
		tb.Skip("BCINDEX_BENCH_REPO names an indexed repository")
	}
	repo, err := gitindex.OpenRepo(dir)
	if err != nil {
		tb.Fatal(err)
	}
	rd := openDefaultStore(tb, repo)
	opts := Options{Embedder: embed.Default()}
	return repo, rd, viewOf(repo, rd.Want.Commits[0], rd, 1, &opts)
}

// openDefaultStore opens repo's store at the revision a default search
// reads, with the built-in model, closed when tb ends.
func openDefaultStore(tb testing.TB, repo *gitindex.Repo) *store.View {
	emb := embed.Default()
	p, err := NewPlan(repo, Options{Embedder: emb})
	if err != nil {
		tb.Fatal(err)
	}
	rd, err := store.Open(context.Background(), repo, p.Want, emb.ID())
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { rd.Close() })
	return rd
}
