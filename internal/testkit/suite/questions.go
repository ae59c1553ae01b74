package suite

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/bcindex/bcindex/chunk"
	"github.com/bcindex/bcindex/chunk/vocab"
)

// QuestionsDir holds the question suite, one file per package named by its
// Dir, relative to the repository's top directory.
const QuestionsDir = "search/testdata/questions"

// QuestionKinds are the kinds a question may have: docs is a question
// whose best answer is documentation (usage, configuration).
var QuestionKinds = map[string]bool{"how": true, "where": true, "what": true, "docs": true}

// QuestionFile is one package's questions as written in QuestionsDir.
type QuestionFile struct {
	Package   string     `json:"package"`
	Split     string     `json:"split"`
	Lang      string     `json:"lang"`
	Frozen    string     `json:"frozen"` // YYYY-MM-DD: a changed question is a new one
	Questions []Question `json:"questions"`
}

// Question is a question a developer would type and every chunk that
// would satisfy them.
type Question struct {
	ID       string   `json:"id"`
	Question string   `json:"question"`
	Kind     string   `json:"kind"`
	Answers  []Answer `json:"answers"`
}

// Answer is one acceptable answer: a definition by path and the chunker's
// name, or any chunk by path and a line inside it.
type Answer struct {
	Path string `json:"path"`
	Name string `json:"name,omitempty"`
	Line int    `json:"line,omitempty"`
}

// Matches reports whether a hit (path, name, kind, parent name and lines)
// answers the question: its path is an answer's and either the names agree
// (a block stands for the definition it is in) or the answer's line lies
// within the hit.
func (q Question) Matches(path, name, kind, parent string, start, end int) bool {
	for _, a := range q.Answers {
		if a.Path != path {
			continue
		}
		if a.Name != "" && (a.Name == name || kind == vocab.KindBlock && a.Name == parent) {
			return true
		}
		if a.Line > 0 && start <= a.Line && a.Line <= end {
			return true
		}
	}
	return false
}

// AttachQuestions reads every question file in qdir, checks it against the
// prepared suite in dir and sets Questions on its package. Every problem is
// reported, each naming its file and question.
func AttachQuestions(qdir, dir string, pkgs []Package) error {
	names, err := filepath.Glob(filepath.Join(qdir, "*.json"))
	if err != nil {
		return err
	}
	byDir := map[string]int{}
	for i, p := range pkgs {
		byDir[p.Dir] = i
	}
	ids := map[string]string{}
	var errs []error
	for _, name := range names {
		i, ok := byDir[strings.TrimSuffix(filepath.Base(name), ".json")]
		if !ok {
			errs = append(errs, fmt.Errorf("%s: no suite package has this dir (hint: name the file after a package's dir in %s)", name, filepath.Join(dir, "suite.json")))
			continue
		}
		qs, err := readQuestions(name, dir, pkgs[i], ids)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		pkgs[i].Questions = qs
	}
	return errors.Join(errs...)
}

// readQuestions reads and checks one package's question file; ids holds
// the ids seen so far (id → file), which no question may reuse.
func readQuestions(name, dir string, p Package, ids map[string]string) ([]Question, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var f QuestionFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var errs []error
	bad := func(format string, a ...any) {
		errs = append(errs, fmt.Errorf("%s: "+format, append([]any{name}, a...)...))
	}
	if f.Package != p.Name || f.Split != p.Split || f.Lang != p.Lang {
		bad("package, split, lang are %q, %q, %q; the suite's are %q, %q, %q", f.Package, f.Split, f.Lang, p.Name, p.Split, p.Lang)
	}
	if _, err := time.Parse(time.DateOnly, f.Frozen); err != nil {
		bad("frozen %q is not a date (YYYY-MM-DD)", f.Frozen)
	}
	if len(f.Questions) == 0 {
		bad("no questions")
	}
	files := answerFiles{dir: dir, p: p, names: map[string]map[string]bool{}, lines: map[string]int{}}
	for _, q := range f.Questions {
		switch {
		case q.ID == "":
			bad("question %q has no id", q.Question)
		case ids[q.ID] != "":
			bad("question %s: id also used in %s", q.ID, ids[q.ID])
		}
		ids[q.ID] = name
		if strings.TrimSpace(q.Question) == "" {
			bad("question %s: empty question", q.ID)
		}
		if !QuestionKinds[q.Kind] {
			bad("question %s: kind %q is not how, where, what or docs", q.ID, q.Kind)
		}
		if len(q.Answers) == 0 {
			bad("question %s: no answers", q.ID)
		}
		for j, a := range q.Answers {
			if err := files.check(a); err != nil {
				bad("question %s: answer %d: %v", q.ID, j+1, err)
			}
		}
	}
	return f.Questions, errors.Join(errs...)
}

// answerFiles checks answers against a package's files, splitting each
// file once.
type answerFiles struct {
	dir   string
	p     Package
	names map[string]map[string]bool // path → chunk names
	lines map[string]int
}

func (f *answerFiles) check(a Answer) error {
	if (a.Name == "") == (a.Line <= 0) {
		return fmt.Errorf("%s: give a name or a line, not both or neither", a.Path)
	}
	if _, ok := f.names[a.Path]; !ok {
		var data []byte
		var err error
		for _, d := range f.p.QuestionDirs(f.dir) {
			if data, err = os.ReadFile(filepath.Join(d, filepath.FromSlash(a.Path))); err == nil {
				break
			}
		}
		if err != nil {
			return fmt.Errorf("%s is in neither kept/ nor prose/ of %s", a.Path, f.p.Dir)
		}
		names := map[string]bool{}
		for _, c := range chunk.Split(a.Path, data).Chunks {
			names[c.Name] = true
		}
		f.names[a.Path] = names
		f.lines[a.Path] = bytes.Count(data, []byte("\n")) + 1
	}
	if a.Name != "" && !f.names[a.Path][a.Name] {
		return fmt.Errorf("%s has no chunk named %q (hint: the chunker's name, as search prints it)", a.Path, a.Name)
	}
	if a.Line > f.lines[a.Path] {
		return fmt.Errorf("%s has %d lines, not %d", a.Path, f.lines[a.Path], a.Line)
	}
	return nil
}
