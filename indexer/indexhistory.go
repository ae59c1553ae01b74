package indexer

import (
	"context"
	"fmt"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexing"
)

// historyBatch is how many commits one indexing run of a history takes.
// A run holds the listings of all its revisions: 24,254 commits of a
// repository of 4,000 files held at once took 12 GB before the first blob
// was read. A batch bounds that to a few hundred listings; each run
// publishes what it did, so a killed history index resumes at the next
// run. A variable so that tests cut a short history into several runs.
var historyBatch = 256

// IndexHistory indexes the commits History selects, oldest first, in
// runs of historyBatch commits. Blobs shared between commits are
// processed once, so the cost grows with distinct blobs. When the walk
// reached a root commit, Options.ChangeTables then runs for each tip (the
// front ends pass pickaxe.BuildHistory, so that no log -S or -G query
// diffs trees or reads blobs first): after the indexing, not beside it,
// so that the process's peak memory is the larger of the two, not their
// sum (on git's whole history the tables alone peak near 500 MB).
func (ix *Indexer) IndexHistory(ctx context.Context, opts gitindex.HistoryOptions, lockWait time.Duration) (*Summary, error) {
	start := time.Now()
	commits, err := ix.repo.History(ctx, opts)
	if err != nil {
		return nil, err
	}
	total := &Summary{Skipped: map[string]int{}}
	defer func() { total.Elapsed = time.Since(start) }()
	sum, err := ix.indexBatches(ctx, commits, ix.tipBlobs(ctx, opts), lockWait, total)
	if err == nil {
		if cerr := ix.changeTables(ctx, opts, commits); cerr != nil {
			err = fmt.Errorf("record the history's changes: %w", cerr)
		}
	}
	return sum, err
}

// changeTables runs Options.ChangeTables on the tips of opts, when the
// history walked reached a root commit (a shorter history leaves the
// pickaxe's table to the first query).
func (ix *Indexer) changeTables(ctx context.Context, opts gitindex.HistoryOptions, commits []gitindex.HistoryCommit) error {
	root := false
	for _, c := range commits {
		root = root || c.Parent.IsZero()
	}
	tips, err := ix.repo.HistoryTips(opts)
	if ix.opts.ChangeTables == nil || !root || err != nil || len(tips) == 0 {
		return nil
	}
	if hp, ok := ix.opts.Progress.(indexing.HistoryProgress); ok {
		hp.Tables()
	}
	for _, tip := range tips {
		if err := ix.opts.ChangeTables(ctx, tip); err != nil {
			return err
		}
	}
	return nil
}

// indexBatches indexes commits, oldest first, historyBatch at a time.
// A batch whose commits an earlier run listed and whose blobs are all
// indexed already counts in total.Resumed: an interrupted history index
// so says where it picked up. A HistoryProgress hears of each batch.
func (ix *Indexer) indexBatches(ctx context.Context, commits []gitindex.HistoryCommit, textOf map[plumbing.Hash]bool, lockWait time.Duration, total *Summary) (*Summary, error) {
	run := *ix
	run.seen = map[plumbing.Hash]bool{}
	run.textOf = textOf
	hp, _ := ix.opts.Progress.(indexing.HistoryProgress)
	if hp != nil {
		hp.Commits(0, len(commits), total)
	}
	for lo := 0; lo < len(commits) || lo == 0; lo += historyBatch {
		batch := commits[lo:min(len(commits), lo+historyBatch)]
		listed := true
		for _, c := range batch {
			listed = listed && gitindex.ListingCached(ix.repo.IndexDir, c.Tree)
		}
		run.reclaimLog = lo+historyBatch >= len(commits)
		cs := make([]gitindex.Commit, len(batch))
		for i, c := range batch {
			cs[i] = c.Commit
		}
		// One listing at a time, each derived from its parent's, whose
		// diff names the previous version of an edited file (chunked from
		// it when indexed).
		sum, err := run.index(ctx, cs, func(each func(*gitindex.Listing, *gitindex.TreeDiff) error) error {
			return ix.repo.ListHistory(ctx, batch, each)
		}, lockWait, time.Now())
		if sum != nil {
			if err == nil && listed && sum.BlobsNew == 0 {
				sum.Resumed = len(batch)
			}
			if err != nil {
				sum.Commits = nil // an interrupted batch's commits are not all indexed
			}
			total.Add(sum)
		}
		if err != nil {
			return total, err
		}
		if hp != nil {
			hp.Commits(lo+len(batch), len(commits), total)
		}
	}
	return total, nil
}

// tipBlobs returns the blobs of the history's tips: the only ones whose
// bytes a history index keeps in its segments for exact search. An older
// version of a file is read from git's pack when a search of an old
// revision needs it; keeping every version's bytes would make the store
// several times the packed objects, where git keeps deltas. nil (every
// blob's bytes kept) when a tip cannot be listed.
func (ix *Indexer) tipBlobs(ctx context.Context, opts gitindex.HistoryOptions) map[plumbing.Hash]bool {
	tips, err := ix.repo.HistoryTips(opts)
	if err != nil || len(tips) == 0 {
		return nil
	}
	blobs := map[plumbing.Hash]bool{}
	for _, tip := range tips {
		c, err := ix.repo.Resolve(tip.String())
		if err != nil {
			return nil
		}
		l, err := ix.repo.CommitListing(ctx, c)
		if err != nil {
			return nil
		}
		for _, e := range l.Entries {
			blobs[e.Blob] = true
		}
	}
	return blobs
}
