package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/bcindex/bcindex/exact"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/grep"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/query"
)

// runRefs searches bcindex's ref selection (--ref, --all-branches, --tags,
// --all), where each file is printed once, naming every revision that
// holds it. Patterns are a plain list (-e, -f, the positional one), and
// paths are bcindex's globs and git pathspecs.
func (g *grepRun) runRefs() error {
	o := g.o
	if err := g.readPatternFiles(); err != nil {
		return err
	}
	args := o.args
	if len(args) > 0 && len(o.tokens) == 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) > 0 && len(o.tokens) == 0 {
		o.tokens = append(o.tokens, exact.Token{Kind: exact.TokPattern, Pattern: args[0]})
		args = args[1:]
	}
	var patterns []string
	for _, t := range o.tokens {
		if t.Kind != exact.TokPattern {
			return usageError{"--and, --not and parentheses do not combine with --ref, --all-branches, --tags or --all"}
		}
		patterns = append(patterns, t.Pattern)
	}
	if len(patterns) == 0 {
		return gitFatal{"no pattern given"}
	}
	if o.invert || o.allMatch {
		return usageError{"-v and --all-match do not combine with --ref, --all-branches, --tags or --all"}
	}
	var pf query.PathFilter
	for _, a := range args {
		if a == "--" {
			continue
		}
		if err := pf.AddPathspec(a); err != nil {
			return usageError{err.Error()}
		}
	}
	for _, p := range o.paths {
		if err := pf.AddGlob(p); err != nil {
			return usageError{err.Error()}
		}
	}
	for _, p := range o.excludes {
		if err := pf.AddExclude(p); err != nil {
			return usageError{err.Error()}
		}
	}
	eo := exact.Options{Fixed: o.syntax == patternFixed, IgnoreCase: o.ignoreCase, Word: o.word}
	switch o.syntax {
	case patternERE:
		eo.Syntax = exact.ERE
	case patternUnset, patternBRE:
		eo.Syntax = exact.BRE
	}
	m, err := exact.Compile(patterns, eo)
	if err != nil {
		return gitFatal{err.Error()}
	}
	pr, err := newGrepPrinter(o)
	if err != nil {
		return err
	}
	sel := gitindex.RefSelection{Patterns: o.refs, AllBranches: o.allBranches, Tags: o.tags, All: o.all}
	opts := grep.GrepOptions{
		Matcher: m, Refs: sel, Paths: pf, MaxCount: max(o.maxCount, 0),
		FirstOnly: pr.mode == listFiles, Invert: pr.mode == listWithout,
	}
	want, err := grep.Plan(g.repo, opts)
	if err != nil {
		return err
	}
	iopts := g.settings.indexOptions()
	if !pr.json {
		iopts.Progress = newProgress(g.c.App.ErrWriter)
	}
	v, sum, err := indexer.Ensure(g.c.Context, g.repo, iopts, indexer.Request{Want: want, Parts: indexer.Exact, NoIndex: o.noUpdate, LockWait: time.Second})
	if err != nil {
		return err
	}
	defer v.Close()
	if sum != nil && sum.Repaired != "" {
		fmt.Fprintf(g.c.App.ErrWriter, "warning: %s\n", sum.Repaired)
	}
	out, err := g.output(nil)
	if err != nil {
		return err
	}
	pr.bind(out)
	st, err := grep.Grep(g.c.Context, v, opts, pr.file)
	cerr := out.close()
	if err != nil {
		if errors.Is(err, errPipeClosed) {
			return nil
		}
		return err
	}
	if cerr != nil {
		return cerr
	}
	for _, d := range st.Damaged {
		fmt.Fprintf(g.c.App.ErrWriter, "warning: %s; its blobs were read from git instead\n", d)
	}
	if o.stats {
		fmt.Fprintf(g.c.App.ErrWriter, "%d files (%d distinct blobs) in %d revisions; %d blobs read (%d from the index's copies of their bytes): %d the trigram index could not rule out, %d it does not cover; %d files matched\n",
			st.Files, st.Blobs, len(st.Revisions), st.Candidates+st.Unindexed, st.FromIndex, st.Candidates, st.Unindexed, st.Matched)
	}
	if st.Matched == 0 {
		return errNoResults
	}
	return nil
}
