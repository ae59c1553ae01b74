package indexer

import (
	"context"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/gitindex"
)

// historyBatch is how many commits one indexing run of a history takes.
// A run holds the listings of all its revisions: 24,254 commits of a
// repository of 4,000 files held at once took 12 GB before the first blob
// was read. A batch bounds that to a few hundred listings; each run
// publishes what it did, so a killed history index resumes at the next
// run.
const historyBatch = 256

// IndexHistory indexes the commits History selects, oldest first, in
// runs of historyBatch commits. Blobs shared between commits are
// processed once, so the cost grows with distinct blobs.
func (ix *Indexer) IndexHistory(ctx context.Context, opts gitindex.HistoryOptions, lockWait time.Duration) (*Summary, error) {
	start := time.Now()
	commits, err := ix.repo.History(ctx, opts)
	if err != nil {
		return nil, err
	}
	total := &Summary{Skipped: map[string]int{}}
	defer func() { total.Elapsed = time.Since(start) }()
	run := *ix
	run.seen = map[plumbing.Hash]bool{}
	for lo := 0; lo < len(commits) || lo == 0; lo += historyBatch {
		batch := commits[lo:min(len(commits), lo+historyBatch)]
		if err := ix.repo.ListHistory(ctx, batch); err != nil {
			return total, err
		}
		revs := make([]string, len(batch))
		for i, c := range batch {
			revs[i] = c.Hash.String()
		}
		sum, err := run.Index(ctx, revs, lockWait)
		if sum != nil {
			total.add(sum)
		}
		if err != nil {
			return total, err
		}
	}
	return total, nil
}

// add adds the counts of one run of a history index to s.
func (s *Summary) add(o *Summary) {
	s.Commits = append(s.Commits, o.Commits...)
	s.Files += o.Files
	s.Blobs += o.Blobs
	s.BlobsNew += o.BlobsNew
	s.BlobsReused += o.BlobsReused
	s.BlobsEdited += o.BlobsEdited
	for k, v := range o.Skipped {
		s.Skipped[k] += v
	}
	s.Chunks += o.Chunks
	s.Embedded += o.Embedded
	s.VectorsReused += o.VectorsReused
	s.SyntaxErrors += o.SyntaxErrors
	s.SevereErrors += o.SevereErrors
	s.Fallback += o.Fallback
	s.Bytes += o.Bytes
	if o.RebuiltFrom != 0 {
		s.RebuiltFrom = o.RebuiltFrom
	}
	if o.Repaired != "" {
		s.Repaired = o.Repaired
	}
}
