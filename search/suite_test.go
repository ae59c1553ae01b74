package search

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/internal/testkit/suite"
)

// The multilingual quality suite: the suite-dev and suite-test packages of
// cmd/bcindex-train/sources.txt (public packages from the Go module proxy,
// npm and Debian, never trained on), prepared by `bcindex-train suite` into
// a cache outside the repository. Each package is indexed twice, docs kept
// and docs stripped; its queries are documented functions' first doc
// sentences (answered by the function) and names defined once (answered by
// their definition). A package with questions written by people
// (search/testdata/questions, suite_questions_test.go) is indexed a third
// time, docs kept with its documentation, and asked those. Fusion is tuned
// on the dev half only.

var (
	suiteFull  = flag.Bool("suite.full", false, "quality suite: every query (default: suiteLanguage per language and set, evenly spaced over each package's)")
	suiteFirst = flag.Bool("suite.first", false, "quality suite: the hybrid without its second stage (rerank.go), to compare")
	suiteOut   = flag.String("suite.out", "", "quality suite: also write the per-package table (Markdown) to this file")
	suiteModel = flag.String("suite.model", "", "quality suite: index and search with this static model file (a candidate from bcindex-train) instead of the built-in model")
)

var (
	suiteEmbOnce sync.Once
	suiteEmb     embed.Embedder
	suiteEmbErr  error
)

// suiteEmbedder is the model the quality suites index and search with:
// the built-in model, or the -suite.model file.
func suiteEmbedder(t testing.TB) embed.Embedder {
	t.Helper()
	if *suiteModel == "" {
		return embed.Default()
	}
	suiteEmbOnce.Do(func() {
		data, err := os.ReadFile(*suiteModel)
		if err == nil {
			suiteEmb, err = embed.LoadStatic(data)
		}
		suiteEmbErr = err
	})
	if suiteEmbErr != nil {
		t.Fatalf("-suite.model: %v", suiteEmbErr)
	}
	return suiteEmb
}

// suiteSmall is how many queries per package and set the summaries'
// ceiling (ceiling_test.go) asks; the gate and the tuning tools that build
// the suite with buildSuite ask suiteLanguage per language.
const suiteSmall = 20

// suiteLanguage is how many queries per language and set go test asks: the
// gate (suite_report_test.go) pools a language's packages, so each gives a
// share, evenly spaced over its queries; a package with fewer queries than
// its share gives all it has and the others make up the rest, as far as
// they can.
const suiteLanguage = 100

// suiteShares returns how many doc and name queries each package (by Dir)
// gives so that each language pools suiteLanguage per set where its
// packages have them.
func suiteShares(pkgs []suitePackage) map[string][2]int {
	byLang := map[string][]int{}
	for i, p := range pkgs {
		byLang[p.Lang] = append(byLang[p.Lang], i)
	}
	out := map[string][2]int{}
	for _, idx := range byLang {
		for set := range 2 {
			have := make([]int, len(idx))
			for j, i := range idx {
				have[j] = len(pkgs[i].Doc)
				if set == 1 {
					have[j] = len(pkgs[i].Names)
				}
			}
			for j, n := range fairShares(have, suiteLanguage) {
				s := out[pkgs[idx[j]].Dir]
				s[set] = n
				out[pkgs[idx[j]].Dir] = s
			}
		}
	}
	return out
}

// fairShares splits total over packages holding have[i] items each: every
// package the same share, a package with fewer giving all it has and the
// rest shared among the others.
func fairShares(have []int, total int) []int {
	order := make([]int, len(have))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return have[order[a]] < have[order[b]] })
	out := make([]int, len(have))
	left := total
	for k, i := range order {
		share := (left + len(order) - k - 1) / (len(order) - k) // rounded up
		out[i] = min(have[i], share)
		left = max(0, left-out[i])
	}
	return out
}

// suitePackage is one package as `bcindex-train suite` describes it.
type suitePackage = suite.Package

// suiteResult is one package's scores: set → arm → score.
type suiteResult struct {
	Package, Split, Lang string
	Queries              map[string]int
	Scores               map[string]map[string]armScore
	// Questions holds, per arm, how each question fared (questions set).
	Questions map[string][]questionRun
}

// The arms reported: BM25 over functions (the baseline), each arm of the
// product alone, and the fusion.
const armBM25 = "bm25"

var suiteArms = map[string][]string{
	"doc-kept":     {armBM25, ModeText, ModeVector, ModeHybrid},
	"doc-stripped": {armBM25, ModeText, ModeVector, ModeHybrid},
	"exact-name":   {armBM25, ModeSymbol, ModeHybrid},
}

func loadSuite(t testing.TB) (string, []suitePackage) { return suite.Load(t, "..") }

// suiteRepo commits one variant of a package (or its QuestionDirs) to a
// fresh repository and indexes it with the built-in model.
func suiteRepo(t testing.TB, dirs ...string) *gitindex.Repo {
	t.Helper()
	repo, err := gitindex.OpenRepo(suite.Commit(t, dirs...).Dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := indexer.NewIndexer(repo, indexer.Options{Embedder: suiteEmbedder(t)}).Index(context.Background(), []string{"HEAD"}, 0); err != nil {
		t.Fatal(err)
	}
	return repo
}

// suiteRepos are one package's indexed variants and its query sets: docs
// kept, docs stripped, and (for a package with questions) docs kept with
// its documentation.
type suiteRepos struct {
	pkg                suitePackage
	kept, strip, quest *gitindex.Repo
	docQ, nameQ        []evalQuery
}

func buildSuite(t testing.TB, split string) []suiteRepos {
	dir, pkgs := loadSuite(t)
	shares := suiteShares(pkgs)
	var out []suiteRepos
	for _, p := range pkgs {
		if split != "" && p.Split != split {
			continue
		}
		docQ, nameQ := p.Doc, p.Names
		if !*suiteFull {
			n := shares[p.Dir]
			docQ, nameQ = sample(docQ, n[0]), sample(nameQ, n[1])
		}
		s := suiteRepos{
			pkg:  p,
			kept: suiteRepo(t, filepath.Join(dir, p.Dir, "kept")), strip: suiteRepo(t, filepath.Join(dir, p.Dir, "stripped")),
			docQ: docQ, nameQ: nameQ,
		}
		if len(p.Questions) > 0 {
			s.quest = questionRepo(t, dir, p)
		}
		out = append(out, s)
	}
	return out
}

// scoreSuite measures every arm of every set on one package.
func scoreSuite(t testing.TB, s suiteRepos) suiteResult {
	res := suiteResult{Package: s.pkg.Name, Split: s.pkg.Split, Lang: s.pkg.Lang,
		Queries: map[string]int{"doc": len(s.docQ), "exact-name": len(s.nameQ)},
		Scores:  map[string]map[string]armScore{}}
	if s.quest != nil {
		scoreQuestions(t, s, &res)
	}
	for set, arms := range suiteArms {
		repo, qs := s.kept, s.docQ
		switch set {
		case "doc-stripped":
			repo = s.strip
		case "exact-name":
			qs = s.nameQ
		}
		res.Scores[set] = map[string]armScore{}
		for _, a := range arms {
			res.Scores[set][a] = evaluateOpts(t, repo, qs, armOptions(a))
		}
	}
	return res
}

// armOptions are the search options of a reported arm.
func armOptions(arm string) Options {
	if arm == armBM25 {
		return Options{Mode: ModeText, Kind: "function,method"}
	}
	if *suiteFirst {
		f := defaultFusion()
		f.rerank = nil
		return Options{Mode: arm, ranking: &f}
	}
	return Options{Mode: arm}
}
