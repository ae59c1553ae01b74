package pickaxe

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
)

// TestIndexCandidates searches an indexed history with the index's
// trigram postings: the same commits as without them, binary files
// counted for -S, and pairs passed over unread.
func TestIndexCandidates(t *testing.T) {
	repo, _, hist := openHistory(t, syntheticRepo(t), "HEAD")
	ctx := context.Background()
	emb := embed.Default()
	if _, err := indexer.NewIndexer(repo, indexer.Options{Embedder: emb}).IndexHistory(ctx,
		gitindex.HistoryOptions{Revs: []string{"HEAD"}}, time.Minute); err != nil {
		t.Fatal(err)
	}
	// "gamma" changes Alpha's count only in a binary file. The pairs
	// passed over spare blob reads without records; with records, whose
	// own filters pass most changes over, they spare none of the reads.
	blobs := withoutRecords(hist)
	for _, tc := range []oracleCase{sCase("Alpha"), sCase("Delta"), gCase("Gamma"), gCase("Alpha", "--text"), sCase("alpha2", "-i")} {
		all, full, err := Search(ctx, repo, blobs, tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		_, fullRec, err := Search(ctx, repo, hist, tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		cand, release := IndexCandidates(repo.IndexDir, emb.ID(), tc.opts)
		tc.opts.Candidates = cand
		some, narrowed, err := Search(ctx, repo, blobs, tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		withRec, narrowedRec, err := Search(ctx, repo, hist, tc.opts)
		release()
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(commitsOf(all), commitsOf(some)) || !slices.Equal(commitsOf(all), commitsOf(withRec)) || len(all) == 0 {
			t.Errorf("%q: %d commits without the index, %d with, %d with records", tc.git, len(all), len(some), len(withRec))
		}
		if narrowed.Skipped == 0 || narrowed.BlobsRead >= full.BlobsRead {
			t.Errorf("%q: the index passed over %d pairs, read %d blobs of %d", tc.git, narrowed.Skipped, narrowed.BlobsRead, full.BlobsRead)
		}
		if narrowedRec.Skipped == 0 || narrowedRec.Records > fullRec.Records || narrowedRec.Records == 0 {
			t.Errorf("%q: with records the index passed over %d pairs, read %d records of %d", tc.git, narrowedRec.Skipped, narrowedRec.Records, fullRec.Records)
		}
	}
	// No index: every blob is a candidate.
	if cand, release := IndexCandidates(t.TempDir(), emb.ID(), sCase("x").opts); !cand(hist[0].Changes[0].To) {
		t.Error("without an index a blob was ruled out")
	} else {
		release()
	}
}
