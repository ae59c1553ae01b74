package indexer

import (
	"context"
	"testing"
)

// The in-order window bounds the bytes read and not yet written, not only
// the blobs: a blob that would pass the budget waits until the blobs
// before it are written, and a blob larger than the budget still fits
// alone.
func TestInOrderBoundsBytes(t *testing.T) {
	ctx := context.Background()
	o := newInOrder(orderWindow)
	var written []int
	write := func(r *blobResult) error { written = append(written, r.seq); return nil }

	o.slots <- struct{}{}
	first, err := o.hold(ctx, orderBytes-10)
	if err != nil {
		t.Fatal(err)
	}
	if o.bytes.TryAcquire(20) {
		t.Fatal("a blob past the byte budget was let in while the first was not written")
	}
	if err := o.add(&blobResult{seq: 0, held: first}, write); err != nil {
		t.Fatal(err)
	}
	if len(written) != 1 || written[0] != 0 {
		t.Fatalf("written %v, want [0]", written)
	}
	// Written, its bytes are given back: a blob larger than the whole
	// budget now fits, weighing the budget.
	o.slots <- struct{}{}
	big, err := o.hold(ctx, 4*orderBytes)
	if err != nil {
		t.Fatal(err)
	}
	if big != orderBytes {
		t.Fatalf("a blob over the budget weighs %d, want %d", big, orderBytes)
	}
	// Dropped after a failed write, its bytes are given back as well.
	o.drop(&blobResult{seq: 5, held: big})
	if !o.bytes.TryAcquire(orderBytes) {
		t.Fatal("a dropped blob kept its bytes")
	}
}
