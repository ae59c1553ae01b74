package search

import (
	"context"
	"slices"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/store"
)

func resolveAll(repo *gitindex.Repo, revs []string) ([]gitindex.Commit, error) {
	out := make([]gitindex.Commit, len(revs))
	for i, rev := range revs {
		c, err := repo.Resolve(rev)
		if err != nil {
			return nil, err
		}
		out[i] = c
	}
	return out, nil
}

// Plan is what a search reads, resolved once before the index is opened:
// the revisions (Want: the front end opens them, through indexer.Ensure,
// which indexes what is missing first, or store.Open, which reads what is
// there) and the compiled filters. A Searcher over the opened view reads
// the plan as it is: nothing is resolved or compiled again.
type Plan struct {
	Want store.Want
	// sel is the selection the plan was resolved from, rev the revision
	// it named (a single ref, or OnlyIn's first); filter is compiled.
	sel    selection
	rev    string
	filter *filter
	// many: every revision asked, named as asked; the first uniq of
	// Want.Commits are their distinct commits, the rest the sets'.
	many bool
	all  []gitindex.Commit
	uniq int
}

// NewPlan checks opts, resolves the revisions they select and compiles
// their filters.
func NewPlan(repo *gitindex.Repo, opts Options) (*Plan, error) {
	sel := selectionOf(&opts)
	if err := checkOptions(&opts); err != nil {
		return nil, err
	}
	p, err := plan(repo, &opts)
	if err != nil {
		return nil, err
	}
	p.sel, p.rev, p.filter = sel, opts.Rev, opts.filter
	return p, nil
}

// onlyIn is how many of the plan's set revisions are OnlyIn's (the rest
// are NotIn's).
func (p *Plan) onlyIn() int { return len(p.sel.onlyIn) }

// selection is what of the options a plan resolves: the revisions and
// the filters.
type selection struct {
	rev, path, lang, kind string
	refs                  gitindex.RefSelection
	onlyIn, notIn, excl   []string
	worktree              bool
}

func selectionOf(o *Options) selection {
	return selection{rev: o.Rev, path: o.Path, lang: o.Lang, kind: o.Kind, refs: o.Refs,
		onlyIn: o.OnlyIn, notIn: o.NotIn, excl: o.Exclude, worktree: o.Worktree}
}

func (s selection) equal(t selection) bool {
	return s.rev == t.rev && s.path == t.path && s.lang == t.lang && s.kind == t.kind && s.worktree == t.worktree &&
		slices.Equal(s.onlyIn, t.onlyIn) && slices.Equal(s.notIn, t.notIn) && slices.Equal(s.excl, t.excl) &&
		slices.Equal(s.refs.Patterns, t.refs.Patterns) && s.refs.AllBranches == t.refs.AllBranches &&
		s.refs.Tags == t.refs.Tags && s.refs.All == t.refs.All
}

// plan resolves opts' revisions, setting opts.Rev from a single ref.
func plan(repo *gitindex.Repo, opts *Options) (*Plan, error) {
	p := &Plan{}
	name := ""
	if !opts.Refs.Empty() {
		revs, err := repo.ExpandRefs(opts.Refs)
		if err != nil {
			return nil, err
		}
		if len(revs) > 1 {
			return planMany(repo, opts, revs)
		}
		opts.Rev, name = revs[0].Rev, revs[0].Name
	}
	if opts.Rev == "" && len(opts.OnlyIn) > 0 {
		opts.Rev = opts.OnlyIn[0]
	}
	if opts.Worktree {
		if len(opts.OnlyIn) > 0 || len(opts.NotIn) > 0 || (opts.Rev != "" && opts.Rev != "HEAD") {
			return nil, errWorktree
		}
		p.Want.Worktree = true
		return p, nil
	}
	commits, err := resolveAll(repo, append(append([]string{opts.Rev}, opts.OnlyIn...), opts.NotIn...))
	if err != nil {
		return nil, err
	}
	if name != "" {
		commits[0].Rev = name
	}
	p.Want.Commits = commits
	return p, nil
}

// SearchIndexed searches what is indexed now, indexing nothing first, as
// `git bcindex search --no-index` does: the plan, the view opened, the
// search, and the view closed.
func SearchIndexed(ctx context.Context, repo *gitindex.Repo, opts Options) (*Result, error) {
	p, err := NewPlan(repo, opts)
	if err != nil {
		return nil, err
	}
	model := ""
	if opts.Embedder != nil {
		model = opts.Embedder.ID()
	}
	v, err := store.Open(ctx, repo, p.Want, model)
	if err != nil {
		return nil, err
	}
	defer v.Close()
	return NewSearcher(v, p).Search(ctx, opts.Parsed, opts)
}
