package search

import (
	"context"

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

// Plan resolves the revisions a search of opts reads. The front end
// opens them (indexer.Ensure, which indexes what is missing first, or
// store.Open, which reads what is there) and passes the view to Search.
func Plan(repo *gitindex.Repo, opts Options) (store.Want, error) {
	if err := checkOptions(&opts); err != nil {
		return store.Want{}, err
	}
	p, err := plan(repo, &opts)
	return p.want, err
}

// searchPlan is what a search of opts reads: the view's revisions and,
// for several, how they map to the asked ones.
type searchPlan struct {
	want store.Want
	// many: every revision asked, named as asked; the first uniq of
	// want.Commits are their distinct commits, the rest the sets'.
	many bool
	all  []gitindex.Commit
	uniq int
}

// plan resolves opts' revisions, setting opts.Rev from a single ref.
func plan(repo *gitindex.Repo, opts *Options) (searchPlan, error) {
	var p searchPlan
	name := ""
	if !opts.Refs.Empty() {
		revs, err := repo.ExpandRefs(opts.Refs)
		if err != nil {
			return p, err
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
			return p, errWorktree
		}
		p.want.Worktree = true
		return p, nil
	}
	commits, err := resolveAll(repo, append(append([]string{opts.Rev}, opts.OnlyIn...), opts.NotIn...))
	if err != nil {
		return p, err
	}
	if name != "" {
		commits[0].Rev = name
	}
	p.want.Commits = commits
	return p, nil
}

// Open opens what a search of opts reads as it is indexed now (Plan's
// revisions, store.Open with the embedder's vectors), for a caller that
// indexes nothing first: --no-index, benchmarks.
func Open(ctx context.Context, repo *gitindex.Repo, opts Options) (*store.View, error) {
	want, err := Plan(repo, opts)
	if err != nil {
		return nil, err
	}
	model := ""
	if opts.Embedder != nil {
		model = opts.Embedder.ID()
	}
	return store.Open(ctx, repo, want, model)
}

// SearchIndexed searches what is indexed now, indexing nothing first, as
// `git bcindex search --no-index` does: Open, Search, and the view closed.
func SearchIndexed(ctx context.Context, repo *gitindex.Repo, opts Options) (*Result, error) {
	v, err := Open(ctx, repo, opts)
	if err != nil {
		return nil, err
	}
	defer v.Close()
	return Search(ctx, v, opts)
}
