package suite

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeTree writes files (slash paths) under dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, s := range files {
		dst := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

const goodQuestions = `{"package": "example.com/p", "split": "suite-dev", "lang": "go", "frozen": "2026-11-26",
 "questions": [
  {"id": "p-01", "question": "where are two numbers summed", "kind": "where",
   "answers": [{"path": "add.go", "name": "Add"}, {"path": "docs/README.md", "line": 3}]}
 ]}`

func suiteFixture(t *testing.T, questions string) (qdir, dir string, pkgs []Package) {
	dir, qdir = t.TempDir(), t.TempDir()
	pkgs = []Package{{Name: "example.com/p", Split: "suite-dev", Lang: "go", Dir: "p-suite-dev"}}
	writeTree(t, filepath.Join(dir, "p-suite-dev"), map[string]string{
		"kept/add.go":          "package p\n\nfunc Add(a, b int) int {\n\treturn a + b\n}\n",
		"prose/docs/README.md": "# p\n\nAdding:\n\n    p.Add(1, 2)\n",
	})
	writeTree(t, qdir, map[string]string{"p-suite-dev.json": questions})
	return qdir, dir, pkgs
}

func TestAttachQuestions(t *testing.T) {
	qdir, dir, pkgs := suiteFixture(t, goodQuestions)
	if err := AttachQuestions(qdir, dir, pkgs); err != nil {
		t.Fatal(err)
	}
	qs := pkgs[0].Questions
	if len(qs) != 1 || len(qs[0].Answers) != 2 {
		t.Fatalf("questions = %+v", qs)
	}
	q := qs[0]
	for _, c := range []struct {
		path, name, kind, parent string
		start, end               int
		want                     bool
	}{
		{"add.go", "Add", "function", "", 3, 5, true},
		{"add.go", "", "block", "Add", 4, 4, true},
		{"add.go", "Sub", "function", "", 3, 5, false},
		{"docs/README.md", "p", "section", "", 1, 5, true},
		{"docs/README.md", "p", "section", "", 4, 5, false},
		{"other.go", "Add", "function", "", 3, 5, false},
	} {
		if got := q.Matches(c.path, c.name, c.kind, c.parent, c.start, c.end); got != c.want {
			t.Errorf("Matches(%s %s %s %s %d-%d) = %v", c.path, c.name, c.kind, c.parent, c.start, c.end, got)
		}
	}
}

func TestAttachQuestionsRejects(t *testing.T) {
	for _, c := range []struct{ edit, old, new, want string }{
		{"kind", `"kind": "where"`, `"kind": "why"`, `question p-01: kind "why"`},
		{"no answers", `"answers": [{"path": "add.go", "name": "Add"}, {"path": "docs/README.md", "line": 3}]`, `"answers": []`, "question p-01: no answers"},
		{"unknown name", `"name": "Add"`, `"name": "Plus"`, `question p-01: answer 1: add.go has no chunk named "Plus"`},
		{"missing file", `"path": "add.go"`, `"path": "sum.go"`, "question p-01: answer 1: sum.go is in neither"},
		{"line past end", `"line": 3`, `"line": 30`, "question p-01: answer 2: docs/README.md has 6 lines, not 30"},
		{"name and line", `"name": "Add"`, `"name": "Add", "line": 3`, "question p-01: answer 1: add.go: give a name or a line"},
		{"no date", `"frozen": "2026-11-26"`, `"frozen": ""`, `frozen "" is not a date`},
		{"duplicate id", `]}
 ]}`, `]},
  {"id": "p-01", "question": "adding", "kind": "how", "answers": [{"path": "add.go", "name": "Add"}]}
 ]}`, "question p-01: id also used in"},
		{"wrong split", `"split": "suite-dev"`, `"split": "suite-test"`, `the suite's are "example.com/p", "suite-dev"`},
	} {
		bad := strings.Replace(goodQuestions, c.old, c.new, 1)
		if bad == goodQuestions {
			t.Fatalf("%s: edit did not apply", c.edit)
		}
		qdir, dir, pkgs := suiteFixture(t, bad)
		err := AttachQuestions(qdir, dir, pkgs)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "p-suite-dev.json") {
			t.Errorf("%s: error %v, want one naming the file and %q", c.edit, err, c.want)
		}
	}
	qdir, dir, pkgs := suiteFixture(t, goodQuestions)
	writeTree(t, qdir, map[string]string{"nosuch-suite-dev.json": goodQuestions})
	if err := AttachQuestions(qdir, dir, pkgs); err == nil || !strings.Contains(err.Error(), "nosuch-suite-dev.json: no suite package") {
		t.Errorf("unknown package: error %v", err)
	}
}

// TestQuestionFiles checks the repository's question files against the
// prepared suite: every answer names a chunk or line that exists.
func TestQuestionFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("prepares the quality suite")
	}
	_, pkgs := Load(t, filepath.Join("..", "..", ".."))
	n := 0
	for _, p := range pkgs {
		n += len(p.Questions)
	}
	t.Logf("%d questions", n)
}
