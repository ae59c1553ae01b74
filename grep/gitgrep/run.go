package gitgrep

import (
	"context"
	"fmt"
	"io"

	"github.com/go-git/go-git/v5/config"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/grep"
	"github.com/bcindex/bcindex/pathspec"
	"github.com/bcindex/bcindex/store"
)

// Env is what a run takes from the command around it: the repository,
// where to print, and how the command indexes, pages and quotes.
type Env struct {
	// Repo is the repository, nil for --no-index outside one. Top is the
	// top of its working tree (or the --no-index directory), Prefix the
	// current directory from the top ("" or ending in '/').
	Repo        *gitindex.Repo
	Top, Prefix string
	// Config is git's configuration (the repository's over the global
	// one), nil when there is none to read.
	Config         *config.Config
	Stdout, Stderr io.Writer
	// Open indexes what want's commits lack (unless noUpdate) and opens
	// their view, showing progress on Stderr when progress is set.
	Open func(ctx context.Context, want store.Want, progress, noUpdate bool) (*store.View, error)
	// Color is --color given before the command, "" when none;
	// WantColor resolves a colour setting (always, never, auto) for
	// Stdout.
	Color     string
	WantColor func(when string) bool
	// Pager, when set, starts the pager on Stdout: it returns what writes
	// to the pager and what waits for it. It returns Stdout when no pager
	// runs (not a terminal, --no-pager, none configured).
	Pager func() (io.Writer, func() error)
	// PagerCommand is the pager -O runs when it names none.
	PagerCommand string
	// Quote writes a path as git does in output for people
	// (core.quotePath).
	Quote func(path string) string
}

// runner is one git bcindex grep.
type runner struct {
	ctx    context.Context
	env    *Env
	o      *Options
	repo   *gitindex.Repo // nil for --no-index outside a repository
	prefix string         // the current directory from the top ("" or ending in '/')
	top    string         // the top of the working tree, or the --no-index directory
}

// Run runs git grep with o in env: the search over the working tree, the
// index, revisions or bcindex's ref selection, printed as git grep
// prints it. A search without a match returns ErrNoMatch.
func Run(ctx context.Context, o *Options, env *Env) error {
	g := &runner{ctx: ctx, env: env, o: o, repo: env.Repo, prefix: env.Prefix, top: env.Top}
	if err := g.configure(); err != nil {
		return err
	}
	if len(o.refs) > 0 || o.allBranches || o.tags || o.all {
		return g.runRefs()
	}
	return g.run()
}

// NoIndex reports whether the command line asks for --no-index, which
// needs no repository.
func (o *Options) NoIndex() bool { return o.noIndex }

// run is git grep's cmd_grep after option parsing, in its order: the
// pattern, the revisions, the paths, then the search.
func (g *runner) run() error {
	o := g.o
	args, err := g.pattern()
	if err != nil {
		return err
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
		return Fatal{err.Error()}
	}
	switch {
	case o.recurseSubmodules && o.untracked:
		return Fatal{"--untracked not supported with --recurse-submodules"}
	case o.recurseSubmodules && !o.noIndex && (o.cached || len(sources) > 0):
		return Fatal{"--recurse-submodules is supported for the working tree only (not with --cached or a revision)"}
	}
	if o.maxCount == 0 {
		return ErrNoMatch
	}
	prog, err := g.compile()
	if err != nil {
		return err
	}
	if o.pager != nil && (o.cached || len(sources) > 0) {
		return Fatal{"--open-files-in-pager only works on the worktree"}
	}
	switch n := btoi(o.noIndex) + btoi(o.untracked) + btoi(o.cached); {
	case n > 1:
		return Fatal{incompatible(o)}
	case o.excludeStandard >= 0 && !o.noIndex && !o.untracked:
		return Fatal{"--[no-]exclude-standard cannot be used for tracked contents"}
	case len(sources) > 0 && o.cached:
		return Fatal{"both --cached and trees are given"}
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

func incompatible(o *Options) string {
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

// workSources is what git grep reads without a revision: the working
// tree's tracked files, the index (--cached), untracked files too
// (--untracked), or a directory (--no-index). HEAD is indexed first, so
// that the files that still hold its blobs are answered from the index.
func (g *runner) workSources() ([]grep.Source, error) {
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
			src.Files, err = repo.GrepUntracked(g.ctx, exclude)
		}
	default:
		if repo.WorkTree == "" && !o.cached {
			return nil, Fatal{"this operation must be run in a work tree"}
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
