package indexer

import (
	"encoding/binary"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/segment"
	"github.com/bcindex/bcindex/store"
)

// TestDamagedSignBitsAreFoundAndRebuilt flips a byte in the sign block of
// a stored vector part (the sign bits the pre-filter maps): a query's
// snapshot leaves the segment out as damaged, never searching wrong sign
// bits, and the next indexing run indexes its blobs again, after which
// every part verifies.
func TestDamagedSignBitsAreFoundAndRebuilt(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", manyFiles(40))
	emb := embed.Default()
	repo, m := indexHEAD(t, r.Dir, emb)
	id, name := m.Segments[0], segment.VectorFileName(emb.ID())
	l, err := segment.ReadLocator(segment.File(repo.IndexDir, id, name))
	if err != nil {
		t.Fatal(err)
	}
	p := l.Parts[0]
	f, err := os.OpenFile(segment.VlogPath(repo.IndexDir, p.Fid), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	h := make([]byte, 64)
	if _, err := f.ReadAt(h, int64(p.Off)); err != nil {
		t.Fatal(err)
	}
	signOff, size := int64(binary.LittleEndian.Uint64(h[52:])), int64(binary.LittleEndian.Uint64(h[40:]))
	if signOff < 64 || signOff >= size {
		t.Fatalf("part header: sign block at %d of %d bytes", signOff, size)
	}
	at := int64(p.Off) + signOff + 3
	b := make([]byte, 1)
	if _, err := f.ReadAt(b, at); err != nil {
		t.Fatal(err)
	}
	b[0] ^= 0x04
	if _, err := f.WriteAt(b, at); err != nil {
		t.Fatal(err)
	}
	f.Close()

	snap, err := store.OpenSnapshot(repo.IndexDir, emb.ID())
	if err != nil {
		t.Fatalf("open snapshot with damaged sign bits: %v", err)
	}
	segs, damaged := len(snap.Segments), snap.Damaged
	snap.Close()
	if segs != 0 || len(damaged) != 1 || !errors.Is(damaged[0].Err, store.ErrCorrupt) {
		t.Fatalf("snapshot: %d segments, damaged %v; want the segment left out as corrupt", segs, damaged)
	}
	if sum := indexRevs(t, r.Dir, emb, "HEAD"); sum.BlobsNew == 0 || !strings.Contains(sum.Repaired, "damaged") {
		t.Fatalf("index after damage: %d new blobs, repaired %q", sum.BlobsNew, sum.Repaired)
	}
	snap, err = store.OpenSnapshot(repo.IndexDir, emb.ID())
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Close()
	if len(snap.Segments) == 0 || len(snap.Damaged) != 0 {
		t.Fatalf("after the rebuild: %d segments, damaged %v", len(snap.Segments), snap.Damaged)
	}
	for _, seg := range snap.Segments {
		if seg.Vec == nil {
			t.Fatal("a rebuilt segment has no vectors")
		}
		if err := seg.Vec.Verify(); err != nil {
			t.Fatal(err)
		}
	}
}
