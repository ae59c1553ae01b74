package gitgrep

import (
	"errors"

	"github.com/bcindex/bcindex/exact"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/grep"
	"github.com/bcindex/bcindex/query"
)

// runRefs searches bcindex's ref selection (--ref, --all-branches, --tags,
// --all), where each file is printed once, naming every revision that
// holds it. Patterns are a plain list (-e, -f, the positional one), and
// paths are bcindex's globs and git pathspecs.
func (g *runner) runRefs() error {
	o := g.o
	args, err := g.pattern()
	if err != nil {
		return err
	}
	var patterns []string
	for _, t := range o.tokens {
		if t.Kind != exact.TokPattern {
			return ArgError{"--and, --not and parentheses do not combine with --ref, --all-branches, --tags or --all"}
		}
		patterns = append(patterns, t.Pattern)
	}
	if o.invert || o.allMatch {
		return ArgError{"-v and --all-match do not combine with --ref, --all-branches, --tags or --all"}
	}
	var pf query.PathFilter
	for _, a := range args {
		if a == "--" {
			continue
		}
		if err := pf.AddPathspec(a); err != nil {
			return ArgError{err.Error()}
		}
	}
	if err := g.globs(&pf); err != nil {
		return err
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
		return Fatal{err.Error()}
	}
	pr, err := newGrepPrinter(o)
	if err != nil {
		return err
	}
	sel := gitindex.RefSelection{Patterns: o.refs, AllBranches: o.allBranches, Tags: o.tags, All: o.all}
	opts := grep.Options{
		Matcher: m, Refs: sel, Paths: pf, MaxCount: max(o.maxCount, 0),
		FirstOnly: pr.mode == listFiles, Invert: pr.mode == listWithout,
	}
	want, err := grep.Plan(g.repo, opts)
	if err != nil {
		return err
	}
	v, err := g.env.Open(g.ctx, want, !pr.json, o.noUpdate)
	if err != nil {
		return err
	}
	defer v.Close()
	out, err := g.output(nil)
	if err != nil {
		return err
	}
	pr.bind(out, g.env.Quote)
	st, err := grep.Grep(g.ctx, v, opts, pr.file)
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
	return g.report(st, true)
}
