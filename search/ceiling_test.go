package search

import (
	"context"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/chunk"
	"github.com/bcindex/bcindex/chunk/vocab"
	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/store"
	"github.com/bcindex/bcindex/store/storewrite"
	"github.com/bcindex/bcindex/train"
)

// The ceiling of generated summaries (doc/llm.md): on the quality suite's
// docs-stripped packages, every documented function of the stripped code is
// given a "summary" written from its own removed doc, straight into the
// summary index, and the doc queries are run with and without it. No model
// writes these, so they bound what summaries can do from above:
//
//   - first: the doc's first sentence. The doc queries ARE these sentences
//     (less a leading name), so a query equals its answer's summary: the
//     mechanism's ceiling, not a summary's.
//
//   - rest: the doc's other sentences, for functions that have any (the
//     others get none): text about the function that is not the query,
//     nearer what a model could write.
//
//   - whole (questions only): the first sentence and the rest together.
//
// The questions set (written by people, not taken from docs) is asked of
// the stripped sources with the package's documentation, beside the same
// with docs kept in the code and no summaries.
//
//	go test ./search -run TestSummaryCeiling -suite.ceiling [-suite.full] [-suite.out FILE]
var (
	suiteCeiling = flag.Bool("suite.ceiling", false, "quality suite: measure generated summaries' ceiling (TestSummaryCeiling)")
	suiteOnly    = flag.String("suite.only", "", "summary ceiling: only the packages whose name or half contains this")
)

// ceilingVariants are the summary sets measured, "" for none.
var ceilingVariants = []string{"", "first", "rest"}

func TestSummaryCeiling(t *testing.T) {
	if !*suiteCeiling {
		t.Skip("summary ceiling: run with -suite.ceiling")
	}
	dir, pkgs := loadSuite(t)
	type row struct {
		split, lang, pkg  string
		nq, nFirst, nRest int
		mrr               map[string]map[string]float64 // variant → mode → MRR@10
		names             map[string]float64            // variant → exact-name R@1 (hybrid)
		questions         map[string]float64            // variant ("kept": docs in the code) → hybrid MRR@10
		nQuestions        int
	}
	var rows []row
	for _, p := range pkgs {
		if !strings.Contains(p.Name+" "+p.Split, *suiteOnly) {
			continue
		}
		docQ, nameQ := p.Doc, p.Names
		if !*suiteFull {
			docQ, nameQ = sample(docQ, suiteSmall), sample(nameQ, suiteSmall)
		}
		repo := suiteRepo(t, filepath.Join(dir, p.Dir, "stripped"))
		first, rest := standIns(t, filepath.Join(dir, p.Dir))
		r := row{split: strings.TrimPrefix(p.Split, "suite-"), lang: p.Lang, pkg: shortName(p.Name), nq: len(docQ),
			nFirst: len(first), nRest: len(rest), mrr: map[string]map[string]float64{}, names: map[string]float64{}}
		for _, v := range ceilingVariants {
			o := Options{NoSummaries: v == ""}
			switch v {
			case "first":
				writeStandIns(t, repo, first)
			case "rest":
				writeStandIns(t, repo, rest)
			}
			r.mrr[v] = map[string]float64{}
			for _, m := range []string{ModeText, ModeVector, ModeHybrid} {
				o.Mode = m
				r.mrr[v][m] = evaluateOpts(t, repo, docQ, o).MRR10
			}
			o.Mode = ModeHybrid
			r.names[v] = evaluateOpts(t, repo, nameQ, o).Recall1
		}
		if len(p.Questions) > 0 {
			r.questions, r.nQuestions = ceilingQuestions(t, dir, p, first, rest), len(p.Questions)
		}
		rows = append(rows, r)
		t.Logf("%s %s: %d queries, %d/%d stand-ins, hybrid %.3f / %.3f / %.3f", r.split, r.pkg, r.nq, r.nFirst, r.nRest,
			r.mrr[""][ModeHybrid], r.mrr["first"][ModeHybrid], r.mrr["rest"][ModeHybrid])
	}
	sort.SliceStable(rows, func(i, j int) bool {
		if rows[i].split != rows[j].split {
			return rows[i].split < rows[j].split
		}
		return rows[i].lang < rows[j].lang
	})
	var b strings.Builder
	b.WriteString("| half | language | package | doc q | summaries (first / rest) | docs stripped, MRR@10 text: none / first / rest | vector: none / first / rest | **hybrid: none / first / rest** | exact name R@1, hybrid: none / first / rest |\n")
	b.WriteString("|---|---|---|---:|---|---|---|---|---|\n")
	three := func(m map[string]float64) string {
		return fmt.Sprintf("%.3f / %.3f / %.3f", m[""], m["first"], m["rest"])
	}
	for _, r := range rows {
		at := func(mode string) map[string]float64 {
			return map[string]float64{"": r.mrr[""][mode], "first": r.mrr["first"][mode], "rest": r.mrr["rest"][mode]}
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %d | %d / %d | %s | %s | **%s** | %s |\n", r.split, r.lang, r.pkg, r.nq, r.nFirst, r.nRest,
			three(at(ModeText)), three(at(ModeVector)), three(at(ModeHybrid)), three(r.names))
	}
	b.WriteString("\n| half | language | package | questions | questions, hybrid MRR@10: docs stripped, summaries none / first / rest / whole doc | docs kept, no summaries |\n|---|---|---|---:|---|---|\n")
	for _, r := range rows {
		if r.nQuestions > 0 {
			fmt.Fprintf(&b, "| %s | %s | %s | %d | %s / %.3f | %.3f |\n", r.split, r.lang, r.pkg, r.nQuestions, three(r.questions), r.questions["whole"], r.questions["kept"])
		}
	}
	t.Logf("summary ceiling (upper bound: stand-ins written from the stripped docs):\n%s", b.String())
	if *suiteOut != "" {
		if err := os.WriteFile(*suiteOut, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// ceilingQuestions asks p's questions of its stripped sources with its
// documentation, with no summaries and with each set of stand-ins, and of
// its sources with docs kept: hybrid MRR@10 by variant.
func ceilingQuestions(t testing.TB, dir string, p suitePackage, first, rest []store.SummaryEntry) map[string]float64 {
	mrr := func(repo *gitindex.Repo, o Options) float64 {
		ranks := make([]int, len(p.Questions))
		for i, q := range p.Questions {
			ranks[i] = firstAnswer(searchTop10(t, repo, q.Question, o), questionAnswers(q))
		}
		return scoreRanks(ranks).MRR10
	}
	out := map[string]float64{"kept": mrr(questionRepo(t, dir, p), Options{Mode: ModeHybrid, NoSummaries: true})}
	repo := suiteRepo(t, filepath.Join(dir, p.Dir, "stripped"), filepath.Join(dir, p.Dir, "prose"))
	out[""] = mrr(repo, Options{Mode: ModeHybrid, NoSummaries: true})
	writeStandIns(t, repo, first)
	out["first"] = mrr(repo, Options{Mode: ModeHybrid})
	writeStandIns(t, repo, rest)
	out["rest"] = mrr(repo, Options{Mode: ModeHybrid})
	writeStandIns(t, repo, whole(first, rest))
	out["whole"] = mrr(repo, Options{Mode: ModeHybrid})
	return out
}

// whole joins each function's first sentence with the rest of its doc.
func whole(first, rest []store.SummaryEntry) []store.SummaryEntry {
	more := map[[16]byte]string{}
	for _, e := range rest {
		more[e.Hash] = e.Summary.Summary
	}
	out := make([]store.SummaryEntry, len(first))
	for i, e := range first {
		out[i] = standIn(e.Hash, strings.TrimSpace(e.Summary.Summary+". "+more[e.Hash]))
	}
	return out
}

// standIns are the summaries written from each documented function's doc
// in kept/, for the same function's chunk in stripped/: the doc's first
// sentence, and the rest of it where there is any.
func standIns(t testing.TB, pkgDir string) (first, rest []store.SummaryEntry) {
	t.Helper()
	kept := filepath.Join(pkgDir, "kept")
	err := filepath.WalkDir(kept, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(kept, p)
		rel = filepath.ToSlash(rel)
		kb, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		sb, err := os.ReadFile(filepath.Join(pkgDir, "stripped", filepath.FromSlash(rel)))
		if err != nil {
			return err
		}
		kf, sf := chunk.Split(rel, kb), chunk.Split(rel, sb)
		hashes := map[string][][16]byte{} // kind and name → the stripped chunks' hashes, in order
		for i, c := range sf.Chunks {
			if c.Kind == vocab.KindFunction || c.Kind == vocab.KindMethod {
				k := c.Kind + " " + c.Name
				hashes[k] = append(hashes[k], store.ContentHash(vocab.IndexText(sb, sf, i)))
			}
		}
		seen := map[string]int{}
		for _, c := range kf.Chunks {
			if c.Kind != vocab.KindFunction && c.Kind != vocab.KindMethod {
				continue
			}
			k := c.Kind + " " + c.Name
			n := seen[k]
			seen[k]++
			if c.Doc == "" || n >= len(hashes[k]) {
				continue
			}
			h := hashes[k][n]
			if s := train.FirstSentence(c.Doc); s != "" {
				first = append(first, standIn(h, s))
			}
			if s := otherSentences(c.Doc); len(strings.Fields(s)) >= 3 {
				rest = append(rest, standIn(h, s))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return first, rest
}

func standIn(h [16]byte, text string) store.SummaryEntry {
	return store.SummaryEntry{Hash: h, Summary: store.GeneratedSummary{Summary: text, Model: "stand-in", Prompt: 1, Generated: true}}
}

var (
	reTag    = regexp.MustCompile(`<[^>]*>|\{@\w+\s*|@\w+`)
	reSpaces = regexp.MustCompile(`\s+`)
)

// otherSentences is a doc without its first sentence, markup and tags
// dropped.
func otherSentences(doc string) string {
	d := strings.TrimSpace(reSpaces.ReplaceAllString(reTag.ReplaceAllString(doc, " "), " "))
	for i := 0; i+1 < len(d); i++ {
		if c := d[i]; (c == '.' || c == '?' || c == '!') && d[i+1] == ' ' {
			if i >= 3 && (d[i-3:i] == "e.g" || d[i-3:i] == "i.e") {
				continue
			}
			return strings.TrimSpace(d[i+1:])
		}
	}
	return ""
}

// writeStandIns writes the summary index of repo with the entries,
// embedded by the built-in model as enhance would.
func writeStandIns(t testing.TB, repo *gitindex.Repo, es []store.SummaryEntry) {
	t.Helper()
	seen := map[[16]byte]bool{} // a text in two files has one summary
	uniq := es[:0:0]
	for _, e := range es {
		if !seen[e.Hash] {
			seen[e.Hash] = true
			uniq = append(uniq, e)
		}
	}
	es = uniq
	emb := embed.Default()
	for i := 0; i < len(es); i += 64 {
		b := es[i:min(i+64, len(es))]
		texts := make([]string, len(b))
		for k := range b {
			texts[k] = b[k].Summary.Text()
		}
		vecs, err := emb.Embed(context.Background(), texts, embed.RoleDocument)
		if err != nil {
			t.Fatal(err)
		}
		for k := range b {
			b[k].Vector = vecs[k]
		}
	}
	h := store.SummaryIndexHeader{Model: "stand-in", Prompt: 1, Embed: emb.ID(), Dim: emb.Dim()}
	if err := storewrite.WriteSummaryIndex(repo.IndexDir, h, es); err != nil {
		t.Fatal(err)
	}
}
