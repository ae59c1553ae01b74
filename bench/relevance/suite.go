package relevance

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Spec pins one repository of a suite (repos.json).
type Spec struct {
	Name     string `json:"name"`
	Language string `json:"language"`
	URL      string `json:"url"`
	Revision string `json:"revision"`
	// Root is benchmark_root: the subdirectory indexed ("" or null: the
	// whole tree).
	Root string `json:"benchmark_root"`
}

// Target is a file, or a span of lines in it, that answers a query. Paths
// are as the suite writes them: relative to the repository or to Root.
type Target struct {
	Path      string `json:"path"`
	StartLine int    `json:"start_line,omitempty"`
	EndLine   int    `json:"end_line,omitempty"`
}

// HasSpan reports whether the target is a span of lines.
func (t Target) HasSpan() bool { return t.StartLine > 0 && t.EndLine > 0 }

func (t Target) String() string {
	if t.HasSpan() {
		return fmt.Sprintf("%s:%d-%d", t.Path, t.StartLine, t.EndLine)
	}
	return t.Path
}

// UnmarshalJSON reads a target written as a path or as {path, start_line,
// end_line} (line numbers as numbers or strings).
func (t *Target) UnmarshalJSON(b []byte) error {
	var p string
	if err := json.Unmarshal(b, &p); err == nil {
		*t = Target{Path: p}
		return nil
	}
	var raw struct {
		Path      string          `json:"path"`
		StartLine json.RawMessage `json:"start_line"`
		EndLine   json.RawMessage `json:"end_line"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return fmt.Errorf("a target is a path or {path, start_line, end_line}: %w", err)
	}
	if raw.Path == "" {
		return errors.New("a target without a path")
	}
	t.Path = raw.Path
	var err error
	if t.StartLine, err = lineNumber(raw.StartLine); err != nil {
		return err
	}
	t.EndLine, err = lineNumber(raw.EndLine)
	return err
}

func lineNumber(b json.RawMessage) (int, error) {
	if len(b) == 0 || string(b) == "null" {
		return 0, nil
	}
	var n int
	if err := json.Unmarshal(b, &n); err == nil {
		return n, nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return 0, fmt.Errorf("a line number %s is neither a number nor a string", b)
	}
	var err error
	if _, err = fmt.Sscanf(s, "%d", &n); err != nil {
		return 0, fmt.Errorf("line number %q: %w", s, err)
	}
	return n, nil
}

// Task is one query of a suite.
type Task struct {
	Repo      string   `json:"repo,omitempty"`
	Query     string   `json:"query"`
	Relevant  []Target `json:"relevant"`
	Secondary []Target `json:"secondary"`
	Category  string   `json:"category"`
}

// All is the relevant targets, then the secondary ones.
func (t Task) All() []Target { return append(append([]Target(nil), t.Relevant...), t.Secondary...) }

// inferCategory is semble's rule for a task without one: a query without
// a space is a symbol, one starting with "how " is architecture, the rest
// semantic.
func inferCategory(q string) string {
	q = strings.TrimSpace(q)
	switch {
	case !strings.Contains(q, " "):
		return "symbol"
	case strings.HasPrefix(strings.ToLower(q), "how "):
		return "architecture"
	}
	return "semantic"
}

// Suite is a suite directory read: the repositories that have annotations,
// in name order, each with its tasks.
type Suite struct {
	Dir   string
	Repos []SuiteRepo
	// NoAnnotations names the specs of repos.json without an annotation
	// file.
	NoAnnotations []string
}

// SuiteRepo is a repository of a suite with its tasks.
type SuiteRepo struct {
	Spec
	Tasks []Task
}

// LoadSuite reads a suite directory: repos.json and annotations/*.json.
// An annotation file whose name repos.json lacks is an error, as is a task
// without a query or targets.
func LoadSuite(dir string) (*Suite, error) {
	b, err := os.ReadFile(filepath.Join(dir, "repos.json"))
	if err != nil {
		return nil, fmt.Errorf("read suite: %w (a suite directory holds repos.json and annotations/<name>.json)", err)
	}
	var specs []Spec
	if err := json.Unmarshal(b, &specs); err != nil {
		return nil, fmt.Errorf("read %s: %w", filepath.Join(dir, "repos.json"), err)
	}
	byName := map[string]Spec{}
	for _, s := range specs {
		if s.Name == "" || s.Revision == "" {
			return nil, fmt.Errorf("read %s: a repository needs a name and a revision", filepath.Join(dir, "repos.json"))
		}
		s.Root = strings.Trim(s.Root, "/")
		byName[s.Name] = s
	}
	files, err := filepath.Glob(filepath.Join(dir, "annotations", "*.json"))
	if err != nil {
		return nil, fmt.Errorf("read suite: %w", err)
	}
	s := &Suite{Dir: dir}
	tasks := map[string][]Task{}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("read suite: %w", err)
		}
		var ts []Task
		if err := json.Unmarshal(b, &ts); err != nil {
			return nil, fmt.Errorf("read %s: %w", f, err)
		}
		for i, t := range ts {
			repo := t.Repo
			if repo == "" {
				repo = name
			}
			if _, ok := byName[repo]; !ok {
				return nil, fmt.Errorf("read %s: repository %q is not in repos.json", f, repo)
			}
			if strings.TrimSpace(t.Query) == "" || len(t.Relevant)+len(t.Secondary) == 0 {
				return nil, fmt.Errorf("read %s: task %d needs a query and a target", f, i+1)
			}
			if t.Category == "" {
				t.Category = inferCategory(t.Query)
			}
			t.Repo = repo
			tasks[repo] = append(tasks[repo], t)
		}
	}
	for _, sp := range specs {
		if ts, ok := tasks[sp.Name]; ok {
			s.Repos = append(s.Repos, SuiteRepo{Spec: byName[sp.Name], Tasks: ts})
		} else {
			s.NoAnnotations = append(s.NoAnnotations, sp.Name)
		}
	}
	sort.Slice(s.Repos, func(i, j int) bool { return s.Repos[i].Name < s.Repos[j].Name })
	if len(s.Repos) == 0 {
		return nil, fmt.Errorf("read suite %s: no repository of repos.json has annotations", dir)
	}
	return s, nil
}
