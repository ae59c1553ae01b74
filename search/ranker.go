package search

import (
	"context"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/lexical"
	"github.com/bcindex/bcindex/query"
	"github.com/bcindex/bcindex/segment"
	"github.com/bcindex/bcindex/store"
	"github.com/go-git/go-git/v5/plumbing"
)

// Ranking is the ranking as the other query packages use it: one query's
// slice of an opened snapshot (store.View holds what is opened), ranked by
// the arms and fusion a Searcher uses. The timeline ranks a history's
// union through it; similar ranks by example.
type Ranking struct{ v *view }

// Ranked is one row of a Ranking.
type Ranked struct {
	Seg, Row int
	Score    float64
	copies   [][2]int // see fused
}

// NewRanking makes the rows of the listings' blobs visible, filtered by opts
// (see newView); commit names the hits. The caller keeps snap open while
// it uses the view.
func NewRanking(repo *gitindex.Repo, commit gitindex.Commit, snap *store.Snapshot, ls []*gitindex.Listing, opts *Options) *Ranking {
	opts.compiled()
	return &Ranking{newView(repo, commit, snap, ls, nil, nil, opts)}
}

// ParseQuery parses opts.Query into opts.Parsed, as Search does once.
func ParseQuery(opts *Options) error { return parseQuery(opts) }

// CheckOptions validates and defaults the options every query shares.
func CheckOptions(opts *Options) error { return checkOptions(opts) }

// RoundScore is a score as hits show it.
func RoundScore(s float64) float64 { return roundScore(s) }

// LoadSummaries joins generated summaries to the ranking and the hits
// unless opts.NoSummaries; a damaged summary index is left out.
func (v *Ranking) LoadSummaries(opts *Options) { v.v.loadSummaries(opts, nil) }

// Rank runs the arms opts.Mode asks for and fuses them, best first.
func (v *Ranking) Rank(ctx context.Context, opts *Options) ([]Ranked, error) {
	fs, err := v.v.rank(ctx, opts.Parsed, opts)
	return rankedOf(fs), err
}

// Like ranks the visible rows by their likeness to an example: its text in
// the text arm and, when vec is not nil, its vector in the vector arm,
// fused by weighted RRF. name is what the fusion weighs paths and test
// files by.
func (v *Ranking) Like(name *query.Query, text string, vec []float32) ([]Ranked, error) {
	v.v.fusion.chunksOnly()
	cands, _ := v.v.textArm(dedupe(lexical.Tokens(text)))
	arms := []arm{{name: ModeText, weight: 1, cands: cands}}
	if vec != nil {
		vc, err := v.v.vectorArmVec(vec)
		if err != nil {
			return nil, err
		}
		arms = append(arms, arm{name: ModeVector, weight: 1, cands: vc})
	}
	return rankedOf(v.v.fuse(name, arms, false)), nil
}

// Restrict hides the visible rows for which keep is false.
func (v *Ranking) Restrict(keep func(segment.Row) bool) { v.v.restrict(keep) }

// Hide hides one row of segment seg.
func (v *Ranking) Hide(seg, row int) { v.v.allow[seg].Clear(uint(row)) }

// PathOf is the first path at which a ranked row is visible.
func (v *Ranking) PathOf(r Ranked) string { return v.v.pathOf(r.Seg, r.Row) }

// Hits turns ranked rows into results named after rev, reading snippets
// from the git blobs.
func (v *Ranking) Hits(rows []Ranked, rev string, opts *Options) ([]Hit, error) {
	fs := make([]fused, len(rows))
	for i, r := range rows {
		fs[i] = fused{seg: r.Seg, row: r.Row, score: r.Score, copies: r.copies}
	}
	v.v.rev = rev
	return v.v.hits(fs, opts)
}

func rankedOf(fs []fused) []Ranked {
	out := make([]Ranked, len(fs))
	for i, f := range fs {
		out[i] = Ranked{Seg: f.seg, Row: f.row, Score: f.score, copies: f.copies}
	}
	return out
}

// RankingOf is the Ranking of the first revision of an opened view, named
// by commit.
func RankingOf(rd *store.View, commit gitindex.Commit, opts *Options) *Ranking {
	opts.compiled()
	return &Ranking{viewOf(rd.Repo, commit, rd, 1, opts)}
}

// OnceMore runs a query over rd, and once more when its scan faulted
// because gc rewrote the log holding vectors it had mapped: rd is opened
// again first.
func OnceMore[T any](rd *store.View, query func() (T, error)) (T, error) { return onceMore(rd, query) }

// AddBlobHashes adds the content hashes of one blob's rows to set.
func AddBlobHashes(snap *store.Snapshot, blob plumbing.Hash, set map[[16]byte]struct{}) {
	addBlobHashes(snap, blob, set)
}
