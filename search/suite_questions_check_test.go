package search

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/internal/testkit/suite"
)

// TestQuestionsSet runs the questions set's scoring on a package made
// here: a definition found by its name, a usage question answered by a
// README line, and the documentation counts the report carries.
func TestQuestionsSet(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes a repository")
	}
	dir := t.TempDir()
	for p, s := range map[string]string{
		"p/kept/frob.go":         "package p\n\n// frobnicate the widget's gears\nfunc Frobnicate(n int) int {\n\treturn n * 3\n}\n\nfunc Unrelated() {}\n",
		"p/prose/docs/README.md": "# p\n\n## Installing\n\nTo install the library run `go get example.com/p` and then import it.\n\n## License\n\nMIT\n",
	} {
		dst := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := suitePackage{Name: "example.com/p", Split: "suite-dev", Lang: "go", Dir: "p", Questions: []suite.Question{
		{ID: "p-01", Question: "Frobnicate", Kind: "where", Answers: []suite.Answer{{Path: "frob.go", Name: "Frobnicate"}}},
		{ID: "p-02", Question: "how do I install the library with go get", Kind: "docs", Answers: []suite.Answer{{Path: "docs/README.md", Line: 5}}},
	}}
	res := suiteResult{Package: p.Name, Split: p.Split, Lang: p.Lang, Queries: map[string]int{}, Scores: map[string]map[string]armScore{}}
	scoreQuestions(t, suiteRepos{pkg: p, quest: questionRepo(t, dir, p)}, &res)

	h := res.Questions[ModeHybrid]
	if len(h) != 2 || h[0].Rank != 0 || !h[0].Code || h[0].FirstProse {
		t.Errorf("exact name: hybrid runs %+v, want the definition first", h)
	}
	if h[1].Rank < 0 || h[1].Code || h[1].Prose3 == 0 || !h[1].FirstProse {
		t.Errorf("usage question: hybrid run %+v, want the README section first", h[1])
	}
	if b := res.Questions[armBM25][1]; b.Rank >= 0 || b.Prose3 != 0 {
		t.Errorf("BM25 over functions answered from the README: %+v", b)
	}
	if got := res.Scores["questions"][ModeHybrid]; got.Recall10 != 1 {
		t.Errorf("hybrid score %+v", got)
	}
	table := questionsTable([]suiteResult{res})
	for _, want := range []string{"| dev | go | p | 2 |", "| dev | all |  | 2 |", "| 0/1 |"} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
}
