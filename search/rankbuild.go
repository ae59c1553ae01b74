package search

import (
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/store"
)

// RankingBuilder makes a Ranking of the union of listings given one at a
// time, oldest first (a history), as NewRanking does for a slice of them,
// while holding only the last one: a history of thousands of commits is
// never in memory at once.
type RankingBuilder struct {
	v    *view
	opts *Options
	prev *gitindex.Listing
	n    int
}

// NewRankingBuilder starts a ranking of no listing yet, filtered by opts;
// commit names the hits. The caller keeps snap open while it uses the
// ranking.
func NewRankingBuilder(repo *gitindex.Repo, commit gitindex.Commit, snap *store.Snapshot, opts *Options) *RankingBuilder {
	opts.compiled()
	return &RankingBuilder{v: emptyView(repo, commit, snap, 0, opts), opts: opts}
}

// Add makes the blobs of l visible: those of its entries the previous
// listing lacks or holds otherwise.
func (b *RankingBuilder) Add(l *gitindex.Listing) {
	es := l.Entries
	if b.prev != nil {
		es = gitindex.FreshEntries(b.prev, l)
	}
	b.v.add(es, b.n, nil, b.opts)
	b.prev, b.n = l, b.n+1
}

// Ranking is the ranking of the listings added.
func (b *RankingBuilder) Ranking() *Ranking { return &Ranking{b.v} }
