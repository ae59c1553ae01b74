package indexer

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// historyCancel is a HistoryProgress that cancels a history index once n
// new blobs are written, and records the commits reported after each batch.
type historyCancel struct {
	n, blobs int
	cancel   context.CancelFunc
	steps    [][2]int // done, total
	tables   int      // calls of Tables
}

func (h *historyCancel) Start(int) {}
func (h *historyCancel) Finish()   {}
func (h *historyCancel) Add(b int, _ int64) {
	h.blobs += b
	if h.blobs == h.n && h.cancel != nil {
		h.cancel()
	}
}
func (h *historyCancel) Tables() { h.tables++ }
func (h *historyCancel) Commits(done, total int, _ *Summary) {
	h.steps = append(h.steps, [2]int{done, total})
}

// TestInterruptedHistoryResumes interrupts a history index of 40 commits,
// cut into runs of 8, in its second run: the next history index processes
// only the blobs the first did not publish, and counts the first run of
// commits, whose blobs were all indexed, as resumed.
func TestInterruptedHistoryResumes(t *testing.T) {
	defer func(b int) { historyBatch = b }(historyBatch)
	historyBatch = 8
	r := gittest.New(t)
	r.Commit("init", manyFiles(10))
	for i := 0; i < 39; i++ {
		r.Commit("c", map[string]string{"pkg3/f3.go": "package pkg3\n\n// V" + strings.Repeat("i", i+1) + " changes.\nfunc V() {}\n"})
	}
	repo, err := gitindex.OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	const blobs = 10 + 39
	// The first run of 8 commits writes 17 blobs; the second is
	// interrupted after 3 of its 8 (those in flight may still finish).
	ctx, cancel := context.WithCancel(context.Background())
	prog := &historyCancel{n: 20, cancel: cancel}
	first, err := NewIndexer(repo, Options{Progress: prog}).IndexHistory(ctx, gitindex.HistoryOptions{}, 0)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted history index returned %v, want context.Canceled", err)
	}
	if len(first.Commits) != 8 {
		t.Errorf("interrupted run names %d commits indexed, want the 8 of its finished batch", len(first.Commits))
	}
	if first.BlobsNew < 20 || first.BlobsNew > 25 || len(prog.steps) != 2 || prog.steps[1] != [2]int{8, 40} {
		t.Fatalf("interrupted run: %d new blobs, batches reported %v; want 20 to 25 blobs and [[0 40] [8 40]]", first.BlobsNew, prog.steps)
	}
	prog = &historyCancel{}
	second, err := NewIndexer(repo, Options{Progress: prog}).IndexHistory(context.Background(), gitindex.HistoryOptions{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if second.BlobsNew != blobs-first.BlobsNew || prog.blobs != second.BlobsNew {
		t.Errorf("resumed run processed %d blobs (progress %d), want %d: the first run published %d",
			second.BlobsNew, prog.blobs, blobs-first.BlobsNew, first.BlobsNew)
	}
	resumed := 8
	if first.BlobsNew == 25 {
		resumed = 16 // the second run of commits finished before it saw the cancel
	}
	if second.Resumed != resumed || len(second.Commits) != 40 {
		t.Errorf("resumed run: %d of %d commits indexed before, want %d of 40", second.Resumed, len(second.Commits), resumed)
	}
	if len(prog.steps) != 6 || prog.steps[0] != [2]int{0, 40} || prog.steps[5] != [2]int{40, 40} {
		t.Errorf("batches reported %v, want 6 from [0 40] to [40 40]", prog.steps)
	}
	// A third run finds everything indexed.
	third, err := NewIndexer(repo, Options{}).IndexHistory(context.Background(), gitindex.HistoryOptions{}, 0)
	if err != nil || third.BlobsNew != 0 || third.Resumed != 40 {
		t.Errorf("third run: %d new blobs, %d commits indexed before, %v; want 0, 40", third.BlobsNew, third.Resumed, err)
	}
}
