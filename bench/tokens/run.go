package tokens

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/bcindex/bcindex/bench/relevance"
)

// Method is one way of answering: the search tool with some arguments, or
// the grep-and-read baseline (Grep).
type Method struct {
	Name string
	Args map[string]any // the search tool's arguments besides query and rev
	Grep bool
}

// The methods a run compares by default: the search tool's answer as it
// was (verbose), as it is, and the baseline.
var (
	Verbose  = Method{Name: "search, verbose (10 chunks, numbered)", Args: map[string]any{"verbose": true}}
	Default  = Method{Name: "search (default answer)"}
	GrepRead = Method{Name: "grep keywords + read files", Grep: true}
	Methods  = []Method{Verbose, Default, GrepRead}
)

// Search is the search tool's default answer with k hits (0: the tool's
// default) and a tail of more further files (nil: the tool's default).
func Search(k int, more *int) Method {
	m := Method{Name: "search (default answer)", Args: map[string]any{}}
	if k > 0 {
		m.Args["k"] = k
		m.Name += fmt.Sprintf(", k=%d", k)
	}
	if more != nil {
		m.Args["more"] = *more
		m.Name += fmt.Sprintf(", more=%d", *more)
	}
	return m
}

// Config of a run.
type Config struct {
	Suite    string
	ReposDir string
	Work     string // "" for a temporary directory
	Repos    []string
	Methods  []Method // default: Methods
	Log      io.Writer
}

// Report is a run's figures per method, in Config's order.
type Report struct {
	Suite   string    `json:"suite"`
	Methods []string  `json:"methods"`
	Metrics []Metrics `json:"metrics"`
	Repos   int       `json:"repos"`
	// Unreachable counts the queries none of whose targets a chunk of the
	// index covers: a miss for every method but the baseline.
	Unreachable int    `json:"unreachable"`
	Budgets     []int  `json:"budgets"`
	Tokens      string `json:"tokens"`
}

// Run measures every method on every query of the suite.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	suite, err := relevance.LoadSuite(cfg.Suite)
	if err != nil {
		return nil, err
	}
	work := cfg.Work
	if work == "" {
		if work, err = os.MkdirTemp("", "bcindex-tokens-"); err != nil {
			return nil, err
		}
		defer os.RemoveAll(work)
	}
	methods := cfg.Methods
	if len(methods) == 0 {
		methods = Methods
	}
	samples := make([][]sample, len(methods))
	rep := &Report{Suite: cfg.Suite, Budgets: Budgets, Tokens: "characters / 4"}
	for _, m := range methods {
		rep.Methods = append(rep.Methods, m.Name)
	}
	for _, sr := range suite.Repos {
		if len(cfg.Repos) > 0 && !slices.Contains(cfg.Repos, sr.Name) {
			continue
		}
		r, err := relevance.Open(ctx, sr.Spec, relevance.OpenOptions{ReposDir: cfg.ReposDir, Work: work})
		if errors.Is(err, relevance.ErrNoRevision) {
			logf(cfg.Log, "%s: skipped: %v\n", sr.Name, err)
			continue
		}
		if err != nil {
			return nil, err
		}
		err = runRepo(ctx, r, sr.Tasks, methods, samples, &rep.Unreachable)
		r.Close()
		if err != nil {
			return nil, err
		}
		rep.Repos++
		logf(cfg.Log, "%s: %d queries\n", sr.Name, len(sr.Tasks))
	}
	if rep.Repos == 0 {
		return nil, fmt.Errorf("no repository of %s could be measured", cfg.Suite)
	}
	for i := range methods {
		rep.Metrics = append(rep.Metrics, summarise(samples[i]))
	}
	return rep, nil
}

func runRepo(ctx context.Context, r *relevance.Repo, tasks []relevance.Task, methods []Method, samples [][]sample, unreachable *int) error {
	c, err := connect(ctx, r)
	if err != nil {
		return err
	}
	defer c.Close()
	fs, err := readFiles(ctx, r)
	if err != nil {
		return err
	}
	for _, t := range tasks {
		targets := t.All()
		if len(targets) == 0 {
			continue
		}
		if !reachable(r, targets) {
			*unreachable++
		}
		for i, m := range methods {
			var units []unit
			if m.Grep {
				units = grepUnits(r, fs, t.Query)
			} else if units, _, err = c.searchUnits(ctx, r, t.Query, m.Args); err != nil {
				return err
			}
			samples[i] = append(samples[i], sample{curve: curve(units, targets), targets: len(targets)})
		}
	}
	return ctx.Err()
}

// reachable reports whether some chunk of the index covers a target:
// when none does, no answer can.
func reachable(r *relevance.Repo, targets []relevance.Target) bool {
	for _, t := range targets {
		for _, sp := range r.Spans {
			if t.Covers(sp.Path, sp.StartLine, sp.EndLine) {
				return true
			}
		}
	}
	return false
}

func logf(w io.Writer, format string, a ...any) {
	if w != nil {
		fmt.Fprintf(w, format, a...)
	}
}

// Print writes the report as a table.
func (r *Report) Print(w io.Writer) {
	fmt.Fprintf(w, "%s: %d repositories; tokens are %s; a query with no covering result costs %d\n", r.Suite, r.Repos, r.Tokens, missCost)
	fmt.Fprintf(w, "%-40s %8s %9s %7s %9s", "method", "queries", "expected", "found", "med.found")
	for _, b := range Budgets {
		fmt.Fprintf(w, " %7s", fmt.Sprintf("r@%d", b))
	}
	fmt.Fprintf(w, " %8s\n", "answer")
	for i, m := range r.Metrics {
		fmt.Fprintf(w, "%-40s %8d %9.0f %7.3f %9.0f", r.Methods[i], m.Queries, m.Expected, m.Found, m.MedianFound)
		for _, x := range m.Recall {
			fmt.Fprintf(w, " %7.3f", x)
		}
		fmt.Fprintf(w, " %8.0f\n", m.Answer)
	}
	fmt.Fprintf(w, "%d queries have no target any chunk of the index covers\n", r.Unreachable)
}
