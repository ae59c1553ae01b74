package search

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/store"
)

// TestNameIndexMatchesScan checks the symbol arm through the name index
// against its scan of every visible name, over two segments, qualified
// names, names beyond ASCII and a path filter; and that a view built on
// a store's view uses the index from its second query, built once.
func TestNameIndexMatchesScan(t *testing.T) {
	repo := indexTwice(t, map[string]string{
		"net/retry.go": gittest.RetryGo,
		"p/p.go":       undocumented,
		"cfg/parse.go": "package cfg\n\n// ParseConfig reads a configuration.\nfunc ParseConfig(s string) string { return s }\n\nfunc parse_config_file(s string) string { return s }\n\nfunc Größe() int { return 1 }\n\nfunc ÜberParse() int { return 2 }\n",
		"lib/conf.rb":  "class Conf\n  def self.parse_config(s)\n    s\n  end\n\n  def parse(s)\n    s\n  end\nend\n",
	}, map[string]string{
		"cfg/more.go": "package cfg\n\n// Parser parses.\ntype Parser struct{}\n\n// Parse parses s.\nfunc (p *Parser) Parse(s string) string { return s }\n\nfunc parseConfigAgain() {}\n",
	})
	rd := openDefaultView(t, repo)
	requireSegments(t, rd, 2)
	ni := newNameIndex(rd.Snap)
	queries := []string{"parse", "Parse", "parse config", "parse_config", "ParseConfig", "parseconfig",
		"Conf.parse_config", "parse_config_file", "größe", "GRÖSSE", "über", "Parser", "pa", "p", "retry", "Retry",
		"zzz", "<<", "conf"}
	for _, opts := range []Options{{}, {Path: "cfg/"}} {
		opts.Embedder = embed.Default()
		v := viewOf(repo, rd.Want.Commits[0], rd, 1, &opts)
		found := 0
		for _, q := range queries {
			scan, indexed := v.symbolMatches(q, nil), v.symbolMatches(q, ni)
			if !slices.Equal(scan, indexed) {
				t.Errorf("path %q, %q: by the name index %+v; the scan %+v", opts.Path, q, indexed, scan)
			}
			found += len(scan)
		}
		if found < 10 {
			t.Errorf("path %q: %d matches in all; the test needs names that match", opts.Path, found)
		}
	}

	opts := Options{Query: "parse", Embedder: embed.Default()}
	if err := parseQuery(&opts); err != nil {
		t.Fatal(err)
	}
	first := viewOf(repo, rd.Want.Commits[0], rd, 1, &opts)
	if first.nameIndexOf(true) != nil {
		t.Error("the first query on a view built the name index")
	}
	// Queries that read names without the symbol arm do not count.
	for i := 0; i < 3; i++ {
		if viewOf(repo, rd.Want.Commits[0], rd, 1, &opts).nameIndexOf(false) != nil {
			t.Fatal("a query without the symbol arm built the name index")
		}
	}
	second := viewOf(repo, rd.Want.Commits[0], rd, 1, &opts)
	idx := second.nameIndexOf(true)
	if idx == nil {
		t.Fatal("the second query on a view has no name index")
	}
	if third := viewOf(repo, rd.Want.Commits[0], rd, 1, &opts); third.nameIndexOf(false) != idx {
		t.Error("a query without the symbol arm does not use the name index made")
	}
	if a, b := second.symbolArm(opts.Parsed), first.symbolArm(opts.Parsed); len(a) == 0 || !slices.Equal(a, b) {
		t.Errorf("the symbol arm answers %+v with the name index, %+v without", a, b)
	}
}

// TestNameIndexMatchesScanRepo is TestNameIndexMatchesScan's comparison
// on a repository indexed already (BCINDEX_BENCH_REPO; skipped without),
// such as a million chunks: the benchmark's queries, their words, and
// their prefixes.
func TestNameIndexMatchesScanRepo(t *testing.T) {
	dir := os.Getenv("BCINDEX_BENCH_REPO")
	if dir == "" {
		t.Skip("BCINDEX_BENCH_REPO names an indexed repository")
	}
	repo, err := gitindex.OpenRepo(dir)
	if err != nil {
		t.Fatal(err)
	}
	rd := openDefaultView(t, repo)
	ni := newNameIndex(rd.Snap)
	opts := Options{Embedder: embed.Default()}
	v := viewOf(repo, rd.Want.Commits[0], rd, 1, &opts)
	var queries []string
	for _, q := range repoBenchQueries {
		queries = append(queries, q)
		for _, w := range strings.Fields(q) {
			queries = append(queries, w, w[:min(2, len(w))], strings.ToUpper(w[:1])+w[1:])
		}
	}
	found := 0
	for _, q := range queries {
		scan, indexed := v.symbolMatches(q, nil), v.symbolMatches(q, ni)
		if !slices.Equal(scan, indexed) {
			t.Errorf("%q: %d rows by the name index, %d by the scan", q, len(indexed), len(scan))
		}
		found += len(scan)
	}
	if found == 0 {
		t.Error("no name matched")
	}
}

// BenchmarkNameIndex measures building the name index of a repository
// indexed already (BCINDEX_BENCH_REPO; skipped without): what a view's
// second symbol query pays once.
func BenchmarkNameIndex(b *testing.B) {
	dir := os.Getenv("BCINDEX_BENCH_REPO")
	if dir == "" {
		b.Skip("BCINDEX_BENCH_REPO names an indexed repository")
	}
	repo, err := gitindex.OpenRepo(dir)
	if err != nil {
		b.Fatal(err)
	}
	snap, err := store.OpenSnapshot(repo.IndexDir, "")
	if err != nil {
		b.Fatal(err)
	}
	defer snap.Close()
	b.ResetTimer()
	defer reportCPU(b, cpuTime())
	for i := 0; i < b.N; i++ {
		newNameIndex(snap)
	}
}
