package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/bcindex/bcindex/exact"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/grep"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/query"
)

func grepCommand() *cli.Command {
	return &cli.Command{
		Name:  "grep",
		Usage: "print every line matching a string or regex, in any revision, from the index (like git grep)",
		ArgsUsage: "[options] PATTERN [REV...] [-- PATHSPEC...]\n\n" +
			"   PATTERN is an RE2 regular expression (-F: a fixed string). Revisions default to HEAD; --ref,\n" +
			"   --all-branches, --tags and --all select several, and each file is printed once, naming every\n" +
			"   revision that holds it. Exit status: 0 with a match, 1 with none, 2 on error.",
		UseShortOptionHandling: true,
		Flags: flags(refFlags(), []cli.Flag{
			&cli.StringSliceFlag{Name: "regexp", Aliases: []string{"e"}, Usage: "match `PATTERN` (repeatable: a line matches if any pattern does)"},
			&cli.BoolFlag{Name: "fixed-strings", Aliases: []string{"F"}, Usage: "patterns are fixed strings, not regular expressions"},
			&cli.BoolFlag{Name: "extended-regexp", Aliases: []string{"E"}, Usage: "accepted for git grep's habit; patterns are RE2 regular expressions anyway"},
			&cli.BoolFlag{Name: "basic-regexp", Aliases: []string{"G"}, Usage: "accepted for git grep's habit; patterns are RE2 regular expressions anyway"},
			&cli.BoolFlag{Name: "perl-regexp", Aliases: []string{"P"}, Usage: "accepted for git grep's habit; RE2 has Perl's classes and flags, not backreferences or lookaround"},
			&cli.BoolFlag{Name: "ignore-case", Aliases: []string{"i"}, Usage: "match letters of either case"},
			&cli.BoolFlag{Name: "word-regexp", Aliases: []string{"w"}, Usage: "match only at word boundaries, as git grep -w"},
			&cli.BoolFlag{Name: "files-with-matches", Aliases: []string{"l", "name-only"}, Usage: "print only the names of files with a match"},
			&cli.BoolFlag{Name: "files-without-match", Aliases: []string{"L"}, Usage: "print only the names of files without a match"},
			&cli.BoolFlag{Name: "count", Aliases: []string{"c"}, Usage: "print each file's number of matching lines"},
			&cli.IntFlag{Name: "after-context", Aliases: []string{"A"}, Usage: "print `N` lines after each match"},
			&cli.IntFlag{Name: "before-context", Aliases: []string{"B"}, Usage: "print `N` lines before each match"},
			&cli.IntFlag{Name: "context", Aliases: []string{"C"}, Usage: "print `N` lines before and after each match"},
			&cli.IntFlag{Name: "max-count", Aliases: []string{"m"}, Usage: "stop reading a file after `N` matching lines"},
			&cli.BoolFlag{Name: "line-number", Aliases: []string{"n"}, Usage: "accepted for git grep's habit; line numbers are always printed"},
			&cli.StringSliceFlag{Name: "path", Usage: "only files matching `GLOB` ('pkg/**/*.go', '*.py'); '!GLOB' leaves them out (repeatable)"},
			&cli.StringSliceFlag{Name: "exclude", Usage: "leave out files matching `GLOB` (repeatable)"},
			&cli.BoolFlag{Name: "null", Aliases: []string{"z"}, Usage: "end file names with a NUL byte instead of ':'"},
			&cli.BoolFlag{Name: "json", Usage: "print JSON Lines: one object per matching line (see the man page for the fields)"},
			&cli.BoolFlag{Name: "vimgrep", Usage: "print path:line:column:text per match, for editors' quickfix lists"},
			&cli.BoolFlag{Name: "stats", Usage: "print to stderr how the index answered: files, distinct blobs, blobs read and verified"},
			&cli.BoolFlag{Name: "no-index", Usage: "do not index missing blobs first; the answer is still complete (unindexed blobs are read)"},
		}, displayFlags()),
		Action: runGrep,
	}
}

// grepArgs splits the positional arguments as git grep does: the pattern
// (unless -e gave it), then revisions, then after "--" pathspecs; an
// argument before "--" that is not a revision starts the pathspecs.
func grepArgs(c *cli.Context, repo *gitindex.Repo) (patterns, revs []string, pf query.PathFilter, err error) {
	args := c.Args().Slice()
	patterns = c.StringSlice("regexp")
	if len(patterns) == 0 {
		if len(args) > 1 && args[0] == "--" {
			args = args[1:] // git bcindex grep -- -pattern
		}
		if len(args) == 0 || args[0] == "--" {
			return nil, nil, pf, usageError{"no pattern given: git bcindex grep [options] PATTERN [REV...] [-- PATHSPEC...]"}
		}
		patterns, args = args[:1], args[1:]
	}
	paths := false
	for _, a := range args {
		switch {
		case a == "--" && !paths:
			paths = true
		case !paths && isRevision(repo, a):
			revs = append(revs, a)
		default:
			paths = true
			if err := pf.AddPathspec(a); err != nil {
				return nil, nil, pf, usageError{err.Error()}
			}
		}
	}
	for _, g := range c.StringSlice("path") {
		if err := pf.AddGlob(g); err != nil {
			return nil, nil, pf, usageError{err.Error()}
		}
	}
	for _, g := range c.StringSlice("exclude") {
		if err := pf.AddExclude(g); err != nil {
			return nil, nil, pf, usageError{err.Error()}
		}
	}
	return patterns, revs, pf, nil
}

func isRevision(repo *gitindex.Repo, s string) bool {
	_, err := repo.Resolve(s)
	return err == nil
}

func runGrep(c *cli.Context) error {
	repo, s, err := openWithSettings(c)
	if err != nil {
		return err
	}
	patterns, revs, pf, err := grepArgs(c, repo)
	if err != nil {
		return err
	}
	m, err := exact.Compile(patterns, exact.Options{Fixed: c.Bool("fixed-strings"), IgnoreCase: c.Bool("ignore-case"), Word: c.Bool("word-regexp")})
	if err != nil {
		return usageError{err.Error()}
	}
	sel := refSelection(c)
	sel.Patterns = append(sel.Patterns, revs...)
	pr, err := newGrepPrinter(c)
	if err != nil {
		return err
	}
	pr.multi = len(sel.Patterns) > 1 || sel.AllBranches || sel.Tags || sel.All
	opts := grep.GrepOptions{
		Matcher: m, Refs: sel, Paths: pf, MaxCount: c.Int("max-count"),
		FirstOnly: pr.mode == listFiles, Invert: pr.mode == listWithout,
	}
	if len(sel.Patterns) == 1 && !sel.AllBranches && !sel.Tags && !sel.All {
		opts.Refs, opts.Rev = gitindex.RefSelection{}, sel.Patterns[0]
	}
	iopts := s.indexOptions()
	if !pr.json {
		iopts.Progress = newProgress(c.App.ErrWriter)
	}
	want, err := grep.Plan(repo, opts)
	if err != nil {
		return err
	}
	// Grep reads the exact index only: blobs are indexed without vectors.
	// The answer is complete without the index (unindexed blobs are read),
	// so a running indexer is not waited for long.
	v, sum, err := ensure(c.Context, repo, iopts, want, indexer.Exact, c.Bool("no-index"), time.Second)
	if err != nil {
		return err
	}
	defer v.Close()
	if sum != nil && sum.Repaired != "" {
		fmt.Fprintf(c.App.ErrWriter, "warning: %s\n", sum.Repaired)
	}
	o, err := openOutput(c, repo, nil)
	if err != nil {
		return err
	}
	pr.bind(o)
	st, err := grep.Grep(c.Context, v, opts, pr.file)
	cerr := o.close()
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
		fmt.Fprintf(c.App.ErrWriter, "warning: %s; its blobs were read from git instead\n", d)
	}
	if c.Bool("stats") {
		fmt.Fprintf(c.App.ErrWriter, "%d files (%d distinct blobs) in %d revisions; %d blobs read: %d the trigram index could not rule out, %d it does not cover; %d files matched\n",
			st.Files, st.Blobs, len(st.Revisions), st.Candidates+st.Unindexed, st.Candidates, st.Unindexed, st.Matched)
	}
	if st.Matched == 0 {
		return errNoResults
	}
	return nil
}
