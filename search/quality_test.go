package search

import (
	"context"
	"encoding/json"
	"flag"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/chunk"
	"github.com/bcindex/bcindex/chunk/vocab"
	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/internal/testkit/suite"
)

var update = flag.Bool("update", false, "rewrite the golden quality file")

// qualityPackages are real code nobody here wrote, from GOROOT: a
// CodeSearchNet-style set of (doc first sentence → function) queries. None
// of the packages an independent evaluation reserves is among them.
var qualityPackages = []string{"bufio", "strings", "net/url", "archive/tar", "compress/flate", "encoding/csv", "text/template", "path/filepath", "container/heap", "mime/multipart"}

type evalQuery = suite.Query

type armScore struct {
	Recall1  float64 `json:"recall@1"`
	Recall3  float64 `json:"recall@3"`
	Recall10 float64 `json:"recall@10"`
	MRR10    float64 `json:"mrr@10"`
}

// scoreRanks scores queries by the rank of each one's first answering hit
// (0-based; -1 when none is in the top 10).
func scoreRanks(ranks []int) armScore {
	var s armScore
	if len(ranks) == 0 {
		return s
	}
	for _, r := range ranks {
		if r < 0 || r >= 10 {
			continue
		}
		if r == 0 {
			s.Recall1++
		}
		if r < 3 {
			s.Recall3++
		}
		s.Recall10++
		s.MRR10 += 1 / float64(r+1)
	}
	n := float64(len(ranks))
	return armScore{round3(s.Recall1 / n), round3(s.Recall3 / n), round3(s.Recall10 / n), round3(s.MRR10 / n)}
}

// qualityReport is the golden file's content.
type qualityReport struct {
	Queries map[string]int                 `json:"queries"`
	Scores  map[string]map[string]armScore `json:"scores"` // set → mode → score
}

var docLine = regexp.MustCompile(`^\s*//`)

// stripDocs removes the comment lines directly above each top-level func.
func stripDocs(src string) string {
	lines := strings.Split(src, "\n")
	keep := make([]bool, len(lines))
	for i := range lines {
		keep[i] = true
	}
	for i, l := range lines {
		if !strings.HasPrefix(l, "func ") {
			continue
		}
		for j := i - 1; j >= 0 && docLine.MatchString(lines[j]); j-- {
			keep[j] = false
		}
	}
	var out []string
	for i, l := range lines {
		if keep[i] {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// firstSentence returns a doc comment's first sentence.
func firstSentence(doc string) string {
	doc = strings.Join(strings.Fields(doc), " ")
	if i := strings.Index(doc, ". "); i >= 0 {
		doc = doc[:i]
	}
	return strings.TrimSuffix(doc, ".")
}

// buildQualityRepo commits the packages (docs stripped or kept) and mines
// the queries from the original source with the project's chunker.
func buildQualityRepo(t testing.TB, strip bool) (*gittest.Repo, []evalQuery, []evalQuery) {
	r := gittest.New(t)
	var docQ, nameQ []evalQuery
	for _, pkg := range qualityPackages {
		dir := filepath.Join(runtime.GOROOT(), "src", filepath.FromSlash(pkg))
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
				continue
			}
			b, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			p := pkg + "/" + e.Name()
			f := chunk.Split(p, b)
			for _, c := range f.Chunks {
				if c.Kind != vocab.KindFunction && c.Kind != vocab.KindMethod {
					continue
				}
				if c.Name == "" || !('A' <= c.Name[0] && c.Name[0] <= 'Z') {
					continue
				}
				nameQ = append(nameQ, evalQuery{Query: c.Name, Path: p, Name: c.Name})
				if q := firstSentence(c.Doc); len(strings.Fields(q)) >= 4 {
					// Drop the leading name ("Foo returns ...") that Go docs repeat:
					// a query states the intent, not the identifier.
					q = strings.TrimPrefix(q, c.Name+" ")
					docQ = append(docQ, evalQuery{Query: q, Path: p, Name: c.Name})
				}
			}
			content := string(b)
			if strip {
				content = stripDocs(content)
			}
			r.Write(map[string]string{p: content})
		}
	}
	r.Git("add", "-A")
	r.Git("commit", "-qm", "corpus")
	// An exact-name lookup is only well posed for a name defined once.
	defs := map[string]int{}
	for _, q := range nameQ {
		defs[q.Name]++
	}
	unique := nameQ[:0]
	for _, q := range nameQ {
		if defs[q.Name] == 1 {
			unique = append(unique, q)
		}
	}
	return r, sample(docQ, 150), sample(unique, 150)
}

// sample takes every k-th query so the set is spread over all packages.
func sample(qs []evalQuery, n int) []evalQuery { return suite.Sample(qs, n) }

func evaluate(t testing.TB, repo *gitindex.Repo, qs []evalQuery, mode string) armScore {
	return evaluateOpts(t, repo, qs, Options{Mode: mode})
}

// evaluateOpts scores the queries searched with o (its Query, K and
// embedder set here).
func evaluateOpts(t testing.TB, repo *gitindex.Repo, qs []evalQuery, o Options) armScore {
	ranks := make([]int, len(qs))
	for i, q := range qs {
		// A block inside the function stands for it (collapse keeps one of the two).
		ranks[i] = firstAnswer(searchTop10(t, repo, q.Query, o), func(h Hit) bool {
			return h.Path == q.Path && (h.Name == q.Name || h.Kind == "block" && h.Parent == q.Name)
		})
	}
	return scoreRanks(ranks)
}

// searchTop10 searches query with o as the quality suites do: the top 10,
// the built-in model, no index refresh.
func searchTop10(t testing.TB, repo *gitindex.Repo, query string, o Options) []Hit {
	o.Query, o.K, o.Embedder, o.MaxLines = query, 10, suiteEmbedder(t), 1
	res, err := SearchIndexed(context.Background(), repo, o)
	if err != nil {
		t.Fatalf("search %q: %v", query, err)
	}
	return res.Hits
}

// firstAnswer is the rank of the first hit that answers, or -1.
func firstAnswer(hits []Hit, answers func(Hit) bool) int {
	for rank, h := range hits {
		if answers(h) {
			return rank
		}
	}
	return -1
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

// TestSearchQuality measures recall@1, recall@10 and MRR@10 per arm and
// fused, and fails when a change lowers the fused MRR below the golden file
// (search/testdata/quality.json; refresh with -update).
func TestSearchQuality(t *testing.T) {
	if *gateKnobs != "" {
		restore, err := SetRankingKnobs(*gateKnobs)
		if err != nil {
			t.Fatal(err)
		}
		defer restore()
	}
	if testing.Short() {
		t.Skip("quality suite skipped in -short mode")
	}
	report := qualityReport{Queries: map[string]int{}, Scores: map[string]map[string]armScore{}}
	var bm25Stripped float64 // plain BM25 over the chunks, docs stripped
	for _, variant := range []struct {
		name  string
		strip bool
	}{{"doc-kept", false}, {"doc-stripped", true}} {
		r, docQ, nameQ := buildQualityRepo(t, variant.strip)
		repo, err := gitindex.OpenRepo(r.Dir)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := indexer.NewIndexer(repo, indexer.Options{Embedder: embed.Default()}).Index(context.Background(), []string{"HEAD"}, 0); err != nil {
			t.Fatal(err)
		}
		report.Queries[variant.name] = len(docQ)
		report.Scores[variant.name] = map[string]armScore{}
		for _, mode := range []string{ModeSymbol, ModeText, ModeVector, ModeHybrid} {
			report.Scores[variant.name][mode] = evaluate(t, repo, docQ, mode)
		}
		if variant.strip {
			bm25Stripped = evaluateOpts(t, repo, docQ, Options{Mode: ModeText, Raw: true}).MRR10
			t.Logf("doc-stripped: plain BM25 MRR@10 %.3f", bm25Stripped)
		}
		if !variant.strip {
			report.Queries["exact-name"] = len(nameQ)
			report.Scores["exact-name"] = map[string]armScore{ModeHybrid: evaluate(t, repo, nameQ, ModeHybrid)}
		}
	}
	got, _ := json.MarshalIndent(report, "", "  ")
	t.Logf("quality:\n%s", got)
	golden := filepath.Join("testdata", "quality.json")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, append(got, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	b, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("read golden file (create it with -update): %v", err)
	}
	var want qualityReport
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	var sets []string
	for set := range want.Scores {
		sets = append(sets, set)
	}
	sort.Strings(sets)
	for _, set := range sets {
		w, g := want.Scores[set][ModeHybrid], report.Scores[set][ModeHybrid]
		if g.MRR10 < w.MRR10-0.005 {
			t.Errorf("%s: fused MRR@10 fell from %.3f to %.3f", set, w.MRR10, g.MRR10)
		}
	}
	if s := report.Scores["doc-stripped"]; s[ModeHybrid].MRR10 < 1.5*bm25Stripped {
		t.Errorf("doc-stripped: fused MRR@10 %.3f < 1.5 × plain BM25 %.3f", s[ModeHybrid].MRR10, bm25Stripped)
	}
	if g := report.Scores["exact-name"][ModeHybrid].Recall1; g < 0.98 {
		t.Errorf("exact-name recall@1 = %.3f, want >= 0.98", g)
	}
}
