package search

import (
	"context"
	"errors"

	"github.com/bcindex/bcindex/query"
	"github.com/bcindex/bcindex/store"
)

// Searcher answers queries over the revisions a Plan resolved, read from
// the view the front end opened for it. The query and the options come
// apart: q is the parsed query (nil: opts.Query is parsed), opts how to
// rank and show it. The options' revisions and filters must be the
// plan's. A Searcher only reads.
type Searcher interface {
	Search(ctx context.Context, q *query.Query, opts Options) (*Result, error)
}

// ErrOtherSelection is returned for options that select other revisions
// or filters than the plan a Searcher was made for resolved.
var ErrOtherSelection = errors.New("the options select other revisions or filters than the search's plan")

// NewSearcher is the Searcher of a plan over v: one revision, or many
// refs at once, each run again when gc moved the vectors it had mapped.
func NewSearcher(v *store.View, p *Plan) Searcher {
	var s Searcher = oneRevision{v, p}
	if p.many {
		s = manyRefs{v, p}
	}
	return planned{retrying{s, v}, p}
}

// oneRevision searches one revision, restricted by the sets of OnlyIn
// and NotIn; its options come prepared (planned).
type oneRevision struct {
	v *store.View
	p *Plan
}

func (s oneRevision) Search(ctx context.Context, q *query.Query, opts Options) (*Result, error) {
	return searchOne(ctx, s.v, q, &opts, s.p)
}

// manyRefs searches several revisions at once, each hit naming the
// revisions that hold its content; its options come prepared (planned).
type manyRefs struct {
	v *store.View
	p *Plan
}

func (s manyRefs) Search(ctx context.Context, q *query.Query, opts Options) (*Result, error) {
	return searchMany(ctx, s.v, q, &opts, s.p)
}

// retrying runs a search once more when its scan faulted because gc
// rewrote the log that holds vectors it had mapped (onceMore).
type retrying struct {
	next Searcher
	v    *store.View
}

func (s retrying) Search(ctx context.Context, q *query.Query, opts Options) (*Result, error) {
	return onceMore(s.v, func() (*Result, error) { return s.next.Search(ctx, q, opts) })
}

// planned parses the query once and checks the options against the plan
// (prepare) before the searches it wraps, which read opts as prepared.
type planned struct {
	next Searcher
	p    *Plan
}

func (s planned) Search(ctx context.Context, q *query.Query, opts Options) (*Result, error) {
	if err := s.p.prepare(q, &opts); err != nil {
		return nil, err
	}
	return s.next.Search(ctx, opts.Parsed, opts)
}

// prepare parses the query once and takes the plan's revision and
// compiled filters into opts, checking and defaulting how it is ranked.
func (p *Plan) prepare(q *query.Query, opts *Options) error {
	if q != nil {
		opts.Parsed = q
	}
	if err := parseQuery(opts); err != nil {
		return err
	}
	if !p.sel.equal(selectionOf(opts)) {
		return ErrOtherSelection
	}
	opts.Rev, opts.filter = p.rev, p.filter
	return checkRanking(opts)
}
