package search

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/testkit/suite"
)

// The questions set: questions written by people from reading a package's
// code (search/testdata/questions, frozen before any ranking was seen),
// each with every chunk that would satisfy its asker, asked of the
// package's sources with docs kept together with its documentation. Some
// are best answered by documentation; the rest are about code, where a
// paragraph that merely shares the question's words should not come first.

// questionArms are the arms the questions set reports.
var questionArms = []string{armBM25, ModeText, ModeVector, ModeHybrid}

// questionRun is how one question fared with one arm.
type questionRun struct {
	Rank       int  // of the first answering hit, 0-based; -1 when none is in the top 10
	Hits3      int  // hits in the top 3
	Prose3     int  // of which documentation
	FirstProse bool // the first hit is documentation
	Code       bool // the question is about code (its kind is not docs)
}

// proseDir is where `bcindex-train suite` puts a package's documentation
// in the question repository.
const proseDir = "docs"

// questionRepo indexes a package's sources (docs kept) with its
// documentation.
func questionRepo(t testing.TB, dir string, p suitePackage) *gitindex.Repo {
	t.Helper()
	if _, err := os.Stat(filepath.Join(dir, p.Dir, "kept", proseDir)); err == nil {
		t.Fatalf("%s: kept/ has a %s/ directory, so documentation hits cannot be told from code", p.Dir, proseDir)
	}
	return suiteRepo(t, p.QuestionDirs(dir)...)
}

// isProseHit reports whether a hit is in the package's documentation.
func isProseHit(h Hit) bool { return strings.HasPrefix(h.Path, proseDir+"/") }

// scoreQuestions asks every question of s with each arm.
func scoreQuestions(t testing.TB, s suiteRepos, res *suiteResult) {
	qs := s.pkg.Questions
	res.Queries["questions"] = len(qs)
	res.Questions = map[string][]questionRun{}
	res.Scores["questions"] = map[string]armScore{}
	for _, a := range questionArms {
		runs := askQuestions(t, s, armOptions(a))
		res.Questions[a] = runs
		res.Scores["questions"][a] = scoreRanks(questionRanks(runs))
	}
}

// askQuestions asks every question of s searched with o.
func askQuestions(t testing.TB, s suiteRepos, o Options) []questionRun {
	qs := s.pkg.Questions
	runs := make([]questionRun, len(qs))
	for i, q := range qs {
		hits := searchTop10(t, s.quest, q.Question, o)
		runs[i] = questionRun{Rank: firstAnswer(hits, questionAnswers(q)), Code: q.Kind != "docs"}
		for j, h := range hits[:min(3, len(hits))] {
			runs[i].Hits3++
			if isProseHit(h) {
				runs[i].Prose3++
				runs[i].FirstProse = runs[i].FirstProse || j == 0
			}
		}
	}
	return runs
}

func questionAnswers(q suite.Question) func(Hit) bool {
	return func(h Hit) bool { return q.Matches(h.Path, h.Name, h.Kind, h.Parent, h.StartLine, h.EndLine) }
}

func questionRanks(runs []questionRun) []int {
	ranks := make([]int, len(runs))
	for i, r := range runs {
		ranks[i] = r.Rank
	}
	return ranks
}

// questionsTable renders the questions set as a Markdown table: per
// package, then per half over all its questions, top-1, top-3, top-10 and
// MRR@10 of each arm; how many of the hybrid's top-3 hits are
// documentation; for how many questions about code the hybrid's first hit
// is documentation; and how many questions an arm alone answers in its
// top 10 while the hybrid does not. results are sorted as suiteTable
// leaves them.
func questionsTable(results []suiteResult) string {
	var b strings.Builder
	b.WriteString("| half | language | package | questions | top-1: BM25 / text / vector / **hybrid** | top-3 | top-10 | MRR@10 | hybrid top-3 hits that are docs | code questions with docs first | hybrid misses an arm finds |\n")
	b.WriteString("|---|---|---|---:|---|---|---|---|---:|---:|---:|\n")
	row := func(half, lang, pkg string, runs map[string][]questionRun) {
		sc := map[string]armScore{}
		for _, a := range questionArms {
			sc[a] = scoreRanks(questionRanks(runs[a]))
		}
		metric := func(get func(armScore) float64) string {
			var s []string
			for i, a := range questionArms {
				f := fmt.Sprintf("%.3f", get(sc[a]))
				if i == len(questionArms)-1 {
					f = "**" + f + "**"
				}
				s = append(s, f)
			}
			return strings.Join(s, " / ")
		}
		var prose, hits3, code, codeProse, missed int
		for i, r := range runs[ModeHybrid] {
			prose, hits3 = prose+r.Prose3, hits3+r.Hits3
			if r.Code {
				code++
				if r.FirstProse {
					codeProse++
				}
			}
			if r.Rank < 0 && (runs[ModeText][i].Rank >= 0 || runs[ModeVector][i].Rank >= 0) {
				missed++
			}
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %d | %s | %s | %s | %s | %d/%d | %d/%d | %d |\n",
			half, lang, pkg, len(runs[ModeHybrid]),
			metric(func(s armScore) float64 { return s.Recall1 }), metric(func(s armScore) float64 { return s.Recall3 }),
			metric(func(s armScore) float64 { return s.Recall10 }), metric(func(s armScore) float64 { return s.MRR10 }),
			prose, hits3, codeProse, code, missed)
	}
	var half string
	all := map[string][]questionRun{}
	flush := func() {
		if len(all[ModeHybrid]) > 0 {
			row(half, "all", "", all)
		}
		all = map[string][]questionRun{}
	}
	for _, r := range results {
		h := strings.TrimPrefix(r.Split, "suite-")
		if h != half {
			flush()
			half = h
		}
		if len(r.Questions) == 0 {
			continue
		}
		row(h, r.Lang, shortName(r.Package), r.Questions)
		for a, runs := range r.Questions {
			all[a] = append(all[a], runs...)
		}
	}
	flush()
	return b.String()
}
