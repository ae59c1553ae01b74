package indexer

import (
	"context"
	"sync"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"golang.org/x/sync/errgroup"

	"github.com/bcindex/bcindex/segment"
	"github.com/bcindex/bcindex/store"
)

// blobResult is one processed blob, ready to be written.
type blobResult struct {
	sha       plumbing.Hash
	seq       int   // position in the run's todo list
	held      int64 // bytes of the in-order budget it holds (inOrder.hold)
	size      int
	rec       *store.BlobRecord
	tokens    [][]string // per chunk; nil when not indexed
	vectors   [][]int8   // per chunk; nil when none
	scales    []float32  // per chunk
	embedded  int
	reused    int
	grams     []uint32       // folded trigrams for exact search; nil when the blob was not read whole
	pieces    [][]uint32     // a large text blob's trigrams per piece (ngram.Pieces)
	text      segment.Stored // a text blob's bytes as the segment stores them (segment.StoreText)
	exactOnly bool           // read for exact search only (a vendored file, say): no chunks
	binary    bool           // read whole and binary: git grep -I passes over it
	spliced   bool           // chunked by chunk.Edit from the previous version
	toEmbed   *toEmbed       // chunks whose vectors are still to be computed
}

// run processes todo; snap holds the blobs the todo's prev fields name.
func (ix *Indexer) run(ctx context.Context, st *storeFuture, snap *store.Snapshot, m *store.Manifest, todo []todoBlob, sum *Summary) error {
	ix.shared = nil // the segments' vectors as this run finds them
	if p := ix.opts.Progress; p != nil {
		p.Start(len(todo))
		defer p.Finish()
	}
	type job struct {
		todoBlob
		seq     int
		held    int64
		content []byte
		size    int64
		prev    *prevVersion
	}
	jobs := make(chan job, ix.opts.Workers*4)
	results := make(chan *blobResult, ix.opts.Workers*4)
	lim, across := ix.embedLimits()
	ord := newInOrder(orderWindow)
	if across {
		ord = newInOrder(orderWindowAcross)
	}
	g, gctx := errgroup.WithContext(ctx)
	// One reader: go-git's object access is not meant for concurrent use, and
	// reading is several times faster than parsing.
	g.Go(func() error {
		defer close(jobs)
		for i, t := range todo {
			select {
			case ord.slots <- struct{}{}:
			case <-gctx.Done():
				return nil
			}
			// Larger blobs than are chunked are read for their trigrams.
			content, size, err := ix.repo.ReadBlobUpTo(t.sha, max(ix.opts.MaxFileSize, MaxExactSize))
			if err != nil {
				return err
			}
			j := job{todoBlob: t, seq: i, size: size, content: content}
			if !t.prev.IsZero() {
				// Best effort: without it the blob is chunked from scratch.
				if pc, psize, err := ix.repo.ReadBlobUpTo(t.prev, ix.opts.MaxFileSize); err == nil && int64(len(pc)) == psize {
					j.prev = &prevVersion{sha: t.prev, content: pc}
				}
			}
			read := int64(len(j.content))
			if j.prev != nil {
				read += int64(len(j.prev.content))
			}
			if j.held, err = ord.hold(gctx, read); err != nil {
				return nil // cancelled
			}
			select {
			case jobs <- j:
			case <-gctx.Done():
				return nil
			}
		}
		return nil
	})
	// With request limits, workers leave embedding to a stage that fills
	// each call with the chunks of many blobs, and look for stored vectors
	// of the same content first.
	rix := &Indexer{repo: ix.repo, opts: ix.opts, textOf: ix.textOf, stored: newStoredVectors(nil, ix.opts.SharedVectors)}
	done := results
	if across {
		rix.embedAcross, rix.stored.snap = true, snap
		done = make(chan *blobResult, ix.opts.Workers*4)
		g.Go(func() error { return embedStage(gctx, ix.opts.Embedder, lim, done, results) })
	}
	var wg sync.WaitGroup
	for w := 0; w < ix.opts.Workers; w++ {
		wg.Add(1)
		g.Go(func() error {
			defer wg.Done()
			for j := range jobs {
				var r *blobResult
				var err error
				if j.pathSkip != "" {
					r = exactOnly(j.sha, j.pathSkip, j.content, j.size, ix.opts.MaxFileSize)
					if !ix.keepsText(j.sha) {
						r.text = segment.Stored{}
					}
				} else if r, err = rix.process(gctx, st, snap, j.prev, j.sha, j.path, j.content, j.size); err != nil {
					return err
				}
				r.seq, r.held = j.seq, j.held
				select {
				case done <- r:
				case <-gctx.Done():
					return nil
				}
			}
			return nil
		})
	}
	go func() { wg.Wait(); close(done) }()

	var w *runWriter
	s, werr := st.get()
	if werr == nil {
		// A killed run may have written vector parts under the segment
		// IDs this run takes (from m.Next): those past the parts this
		// run writes would stay under a live segment, counted dead by
		// the tidy's estimate yet never reclaimed, not even by gc. The
		// sweep gc runs drops them before this run writes.
		_, werr = s.DeleteOrphanVectors(m.Segments)
	}
	if werr == nil {
		w = newRunWriter(ix, s, m, len(todo))
		w.stored = rix.stored
	}
	write := func(r *blobResult) error {
		if err := w.add(r, sum); err != nil {
			return err
		}
		if p := ix.opts.Progress; p != nil {
			p.Add(1, int64(r.size))
		}
		// Publishing now and then bounds what a killed run loses. The
		// points are counts of blobs and bytes, so that the same todo list
		// is cut into the same segments; only a run whose embedding calls
		// leave the process (whose pace is the provider's) publishes by
		// time as well.
		if w.pending >= ix.opts.CheckpointBlobs || w.pendingBytes >= checkpointBytes ||
			across && time.Since(w.published) >= ix.opts.CheckpointEvery {
			return w.publish(nil)
		}
		return nil
	}
	for r := range results {
		if werr != nil {
			ord.drop(r) // drain
			continue
		}
		if werr = ord.add(r, write); werr != nil {
			ord.drop(nil)
		}
	}
	gerr := g.Wait()
	// Publish whatever finished, even when cancelled: the next run resumes.
	if werr == nil {
		werr = w.publish(st.closeAsync)
	}
	if werr != nil {
		return werr
	}
	if gerr != nil {
		return gerr
	}
	return ctx.Err()
}
