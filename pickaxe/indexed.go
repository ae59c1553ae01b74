package pickaxe

import (
	"sync"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/store"
)

// IndexCandidates returns the Candidates the index in indexDir gives for
// opts' pattern, from its blobs' trigram postings, and a function that
// releases the index. Without an index, or for a pattern the index cannot
// plan, every blob is a candidate: the answer is the same, only slower.
// model is the embedder ID the index is opened with ("" when vectors are
// off). The index is opened at the first question: a search the changes'
// records answer may ask none.
func IndexCandidates(indexDir, model string, opts Options) (Candidates, func()) {
	var (
		once sync.Once
		snap *store.Snapshot
		pred func(plumbing.Hash) bool
	)
	open := func() {
		pred = AllBlobs
		m, err := exactMatcher(opts.Pattern)
		if err != nil {
			return
		}
		if snap, err = store.OpenSnapshot(indexDir, model); err != nil {
			return
		}
		if opts.Grep && !opts.Text {
			// -G passes binary files over: they need not be read.
			pred = snap.MayContain(m.Query())
		} else {
			pred = snap.MayHold(m.Query())
		}
	}
	cand := func(h plumbing.Hash) bool {
		once.Do(open)
		return pred(h)
	}
	release := func() {
		once.Do(func() {}) // no opening after the release
		if snap != nil {
			snap.Close()
		}
	}
	return cand, release
}
