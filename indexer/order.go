package indexer

import (
	"context"

	"golang.org/x/sync/semaphore"
)

// inOrder hands processed blobs to the writer in the order of the run's
// todo list, whatever order the workers finish them in: a segment's rows,
// postings and vectors, and where the run's checkpoints cut it into
// segments, are then a function of the revisions indexed alone, and two
// indexes of one tree write the same bytes. A window of slots bounds how
// far the reader runs ahead of the oldest blob not yet written (a large
// blob being parsed): a slot is taken before a blob is read and given back
// once it is written. The bytes read and not yet written are bounded too
// (orderBytes), so a window of large blobs cannot hold gigabytes: a blob
// weighs its bytes, at most the whole budget, so the oldest always fits
// once the blobs before it are written.
type inOrder struct {
	slots   chan struct{}
	bytes   *semaphore.Weighted
	waiting map[int]*blobResult // finished, not yet written
	next    int                 // sequence number of the next blob to write
}

// Blobs the reader may run ahead of the writer: with an in-process model,
// enough to keep the workers busy past a large blob; with a stage that
// fills embedding calls with the chunks of many blobs, enough to fill
// several calls.
const (
	orderWindow       = 256
	orderWindowAcross = 2048
	orderBytes        = 256 << 20
)

func newInOrder(window int) *inOrder {
	return &inOrder{slots: make(chan struct{}, window), bytes: semaphore.NewWeighted(orderBytes), waiting: map[int]*blobResult{}}
}

// hold takes n bytes of the budget for a blob just read (at most the whole
// budget) and returns its weight, given back when the blob is written or
// dropped.
func (o *inOrder) hold(ctx context.Context, n int64) (int64, error) {
	n = min(n, orderBytes)
	if err := o.bytes.Acquire(ctx, n); err != nil {
		return 0, err
	}
	return n, nil
}

// add takes a finished blob and calls write for each blob that is next in
// order, giving back their slots; it stops at write's first error.
func (o *inOrder) add(r *blobResult, write func(*blobResult) error) error {
	o.waiting[r.seq] = r
	for {
		r, ok := o.waiting[o.next]
		if !ok {
			return nil
		}
		delete(o.waiting, o.next)
		o.next++
		<-o.slots
		o.bytes.Release(r.held)
		if err := write(r); err != nil {
			return err
		}
	}
}

// drop gives back the slots of every blob received and not written, after
// the writer failed: the rest of the run is drained unwritten.
func (o *inOrder) drop(r *blobResult) {
	if r != nil {
		o.waiting[r.seq] = r
	}
	for _, r := range o.waiting {
		<-o.slots
		o.bytes.Release(r.held)
	}
	clear(o.waiting)
}
