package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/bcindex/bcindex/exact"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/grep"
	"github.com/bcindex/bcindex/pathspec"
)

func grepCommand() *cli.Command {
	return &cli.Command{
		Name:  "grep",
		Usage: "print the lines matching patterns, as git grep does, from the index",
		ArgsUsage: "[<options>] [-e] <pattern> [<rev>...] [[--] <path>...]\n\n" +
			"   A drop-in for git grep: the same options, patterns (basic regular expressions by default; -E, -F,\n" +
			"   -P, and grep.patternType), pattern expressions (-e P --and -e Q, --or, --not, ( ), --all-match),\n" +
			"   revisions (any commit, tree or blob: main, v1.0~2, 'main^{tree}', HEAD:dir), pathspecs with\n" +
			"   their magic (:(top), :(icase), :(glob), :!), paths relative to the current directory, and\n" +
			"   output, byte for byte. Without a revision it searches the working tree's tracked files (with\n" +
			"   --cached the index, with --untracked untracked files too, with --no-index any directory).\n" +
			"   Blobs the index covers are read only when their trigrams do not rule them out.\n" +
			"   Exit status: 0 with a match, 1 with none, 128 for what git refuses, 129 for a bad option.",
		SkipFlagParsing: true,
		HideHelp:        true,
		Flags:           grepCLIFlags(),
		Action:          runGrep,
	}
}

// grepRun is one git bcindex grep.
type grepRun struct {
	c        *cli.Context
	o        *grepOpts
	repo     *gitindex.Repo // nil for --no-index outside a repository
	settings settings
	prefix   string // the current directory from the top ("" or ending in '/')
	top      string // the top of the working tree, or the --no-index directory
}

func runGrep(c *cli.Context) error {
	o, err := parseGrepArgs(c.Args().Slice())
	var bad grepUsageError
	if errors.As(err, &bad) && bad.onStdout {
		if herr := cli.ShowCommandHelp(c, "grep"); herr != nil {
			return herr
		}
		return bad
	}
	if err != nil {
		return err
	}
	if o.help {
		if err := cli.ShowCommandHelp(c, "grep"); err != nil || !o.shortHelp {
			return err
		}
		return exitStatus(129)
	}
	g := &grepRun{c: c, o: o}
	if err := g.open(); err != nil {
		return err
	}
	if len(o.refs) > 0 || o.allBranches || o.tags || o.all {
		return g.runRefs()
	}
	return g.run()
}

// open opens the repository (none is needed with --no-index) and reads
// the configuration that sets git grep's defaults.
func (g *grepRun) open() error {
	repo, err := openRepo(g.c)
	if err != nil {
		if !errors.Is(err, gitindex.ErrNotRepository) || !g.o.noIndex {
			if errors.Is(err, gitindex.ErrNotRepository) {
				return gitFatal{"not a git repository (or any of the parent directories): .git"}
			}
			return err
		}
		dir := g.c.String("dir")
		if dir == "" {
			dir = "."
		}
		g.top, _ = filepath.Abs(dir)
		return nil
	}
	g.repo, g.prefix, g.top = repo, repo.Prefix(), repo.WorkTree
	if g.settings, err = readSettings(repo); err != nil {
		return err
	}
	cfg := gitConfig(repo)
	if cfg == nil {
		return nil
	}
	if err := checkGrepConfig(cfg); err != nil {
		return err
	}
	sec := cfg.Raw.Section("grep")
	boolCfg := func(key string, into *optBool) {
		if v := sec.Option(key); v != "" && !into.set {
			into.on = configBool(v)
		}
	}
	boolCfg("lineNumber", &g.o.lineNumber)
	boolCfg("column", &g.o.column)
	boolCfg("fullName", &g.o.fullName)
	if g.o.syntax == patternUnset {
		switch strings.ToLower(sec.Option("patternType")) {
		case "basic":
			g.o.syntax = patternBRE
		case "extended":
			g.o.syntax = patternERE
		case "fixed":
			g.o.syntax = patternFixed
		case "perl":
			g.o.syntax = patternPCRE
		case "", "default":
			if configBool(sec.Option("extendedRegexp")) {
				g.o.syntax = patternERE
			}
		default:
			return gitFatal{"bad grep.patterntype argument: " + sec.Option("patternType")}
		}
	}
	return nil
}

// configBool reads a boolean as git does ("" is false here: unset).
func configBool(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true", "yes", "on", "1":
		return true
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	return err == nil && n != 0
}

// run is git grep's cmd_grep after option parsing, in its order: the
// pattern, the revisions, the paths, then the search.
func (g *grepRun) run() error {
	o := g.o
	if err := g.readPatternFiles(); err != nil {
		return err
	}
	args := o.args
	if len(args) > 0 && len(o.tokens) == 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) > 0 && len(o.tokens) == 0 {
		o.tokens = append(o.tokens, exact.Token{Kind: exact.TokPattern, Pattern: args[0], Origin: "command line"})
		args = args[1:]
	}
	if len(o.tokens) == 0 {
		return gitFatal{"no pattern given"}
	}
	if o.invert {
		o.onlyMatching = false
	}
	sources, paths, err := g.revisions(args)
	if err != nil {
		return err
	}
	ps, err := pathspec.Parse(paths, g.prefix, g.top, o.maxDepth)
	if err != nil {
		return gitFatal{err.Error()}
	}
	switch {
	case o.recurseSubmodules && o.untracked:
		return gitFatal{"--untracked not supported with --recurse-submodules"}
	case o.recurseSubmodules && !o.noIndex && (o.cached || len(sources) > 0):
		return gitFatal{"--recurse-submodules is supported for the working tree only (not with --cached or a revision)"}
	}
	if o.maxCount == 0 {
		return errNoResults
	}
	prog, err := g.compile()
	if err != nil {
		return err
	}
	if o.pager != nil && (o.cached || len(sources) > 0) {
		return gitFatal{"--open-files-in-pager only works on the worktree"}
	}
	switch n := btoi(o.noIndex) + btoi(o.untracked) + btoi(o.cached); {
	case n > 1:
		return gitFatal{incompatible(o)}
	case o.excludeStandard >= 0 && !o.noIndex && !o.untracked:
		return gitFatal{"--[no-]exclude-standard cannot be used for tracked contents"}
	case len(sources) > 0 && o.cached:
		return gitFatal{"both --cached and trees are given"}
	}
	if len(sources) == 0 {
		if sources, err = g.workSources(); err != nil {
			return err
		}
	}
	return g.search(sources, ps, prog)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func incompatible(o *grepOpts) string {
	var names []string
	for _, x := range []struct {
		on   bool
		name string
	}{{o.noIndex, "--no-index"}, {o.untracked, "--untracked"}, {o.cached, "--cached"}} {
		if x.on {
			names = append(names, "'"+x.name+"'")
		}
	}
	if len(names) == 3 {
		return fmt.Sprintf("options %s, %s, and %s cannot be used together", names[0], names[1], names[2])
	}
	return fmt.Sprintf("options %s and %s cannot be used together", names[0], names[1])
}

// readPatternFiles replaces each -f FILE by the file's lines (empty lines
// skipped), read as git reads it: from the top of the working tree, or
// standard input for "-".
func (g *grepRun) readPatternFiles() error {
	var out []exact.Token
	for _, t := range g.o.tokens {
		if t.Kind != tokPatternFile {
			out = append(out, t)
			continue
		}
		var r io.Reader
		if t.Pattern == "-" {
			r = os.Stdin
		} else {
			p := t.Pattern
			if !filepath.IsAbs(p) && g.top != "" {
				p = filepath.Join(g.top, p)
			}
			f, err := os.Open(p)
			if err != nil {
				return gitFatal{fmt.Sprintf("cannot open '%s': %s", t.Pattern, errnoText(err))}
			}
			defer f.Close()
			r = f
		}
		sc := bufio.NewScanner(r)
		sc.Buffer(nil, 1<<30)
		for n := 1; sc.Scan(); n++ {
			line := strings.TrimSuffix(sc.Text(), "\r")
			if line != "" {
				origin := fmt.Sprintf("In '%s' at %d", t.Pattern, n)
				out = append(out, exact.Token{Kind: exact.TokPattern, Pattern: line, Origin: origin})
			}
		}
		if err := sc.Err(); err != nil {
			return fmt.Errorf("read %s: %w", t.Pattern, err)
		}
	}
	g.o.tokens = out
	return nil
}

// errnoText is the C library's text for an error, as git prints it.
func errnoText(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		s := pe.Err.Error()
		return strings.ToUpper(s[:1]) + s[1:]
	}
	return err.Error()
}

// compile compiles the pattern expression with -F, -E, -P or the default
// basic syntax.
func (g *grepRun) compile() (*exact.Program, error) {
	o := g.o
	po := exact.ProgramOptions{
		Options: exact.Options{IgnoreCase: o.ignoreCase, Word: o.word, ASCII: !utf8Locale()},
		Invert:  o.invert, AllMatch: o.allMatch, After: o.after, FunctionContext: o.funcbody,
	}
	switch o.syntax {
	case patternFixed:
		po.Fixed = true
	case patternERE:
		po.Syntax = exact.ERE
	case patternPCRE:
		po.Syntax = exact.PCRE
	default:
		po.Syntax = exact.BRE
	}
	prog, err := exact.CompileProgram(o.tokens, po)
	if err != nil {
		var pe *exact.PatternError
		if errors.As(err, &pe) {
			where := "command line"
			for _, t := range o.tokens {
				if t.Kind == exact.TokPattern && slices.Contains(strings.Split(t.Pattern, "\n"), pe.Pattern) {
					where = t.Origin
					break
				}
			}
			return nil, gitFatal{fmt.Sprintf("%s, '%s': %s", where, pe.Pattern, pe.GitMessage())}
		}
		return nil, gitFatal{err.Error()}
	}
	return prog, nil
}

// utf8Locale reports whether the locale git would run in is a UTF-8 one
// (LC_ALL, else LC_CTYPE, else LANG), which decides how patterns fold
// case and what their classes hold.
func utf8Locale() bool {
	v := os.Getenv("LC_ALL")
	if v == "" {
		v = os.Getenv("LC_CTYPE")
	}
	if v == "" {
		v = os.Getenv("LANG")
	}
	v = strings.ToLower(v)
	return strings.Contains(v, "utf-8") || strings.Contains(v, "utf8")
}

// workSources is what git grep reads without a revision: the working
// tree's tracked files, the index (--cached), untracked files too
// (--untracked), or a directory (--no-index). HEAD is indexed first, so
// that the files that still hold its blobs are answered from the index.
func (g *grepRun) workSources() ([]grep.Source, error) {
	o, repo := g.o, g.repo
	src := grep.Source{Dir: g.top, Attributes: repo != nil}
	var err error
	switch {
	case o.noIndex && repo == nil:
		src.Files, err = gitindex.GrepDirectory(g.top)
		return []grep.Source{src}, err
	case o.noIndex || o.untracked:
		exclude := o.excludeStandard == 1 || o.excludeStandard < 0 && o.untracked
		if o.noIndex && !exclude {
			src.Files, err = gitindex.GrepDirectory(g.top)
		} else {
			src.Files, err = repo.GrepUntracked(g.c.Context, exclude)
		}
	default:
		if repo.WorkTree == "" && !o.cached {
			return nil, gitFatal{"this operation must be run in a work tree"}
		}
		if o.recurseSubmodules && !o.cached {
			src.Files, err = repo.GrepWorktreeSubmodules()
		} else {
			src.Files, err = repo.GrepWorktree(o.cached)
		}
	}
	if err != nil {
		return nil, err
	}
	if head, err := repo.Resolve("HEAD"); err == nil {
		src.Commit = &head
	}
	return []grep.Source{src}, nil
}
