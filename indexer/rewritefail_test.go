package indexer

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/store"
	"github.com/bcindex/bcindex/store/storewrite"
)

// TestRewriteLogFailingPartwayIsRepaired: a value-log rewrite whose
// relocation fails at one segment (here its parts are missing from the
// database, so they cannot be found again) still removes the rewritten log
// files. No segment may then be served from a log file that is gone or from
// bytes that are not its vectors: the failing segment is found damaged by
// an open and by `check`, the other segments still read their own vectors,
// and the next indexing run indexes the damaged segment's blobs again, to
// the rows and vectors a fresh index holds.
func TestRewriteLogFailingPartwayIsRepaired(t *testing.T) {
	files := manyFiles(40)
	r := gittest.New(t)
	r.Commit("init", files)
	emb := embed.Default()
	repo, err := gitindex.OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	// Segments of 10 blobs, written in one session: one log file.
	if _, err := NewIndexer(repo, Options{Embedder: emb, CheckpointBlobs: 10}).Index(context.Background(), []string{"HEAD"}, 0); err != nil {
		t.Fatal(err)
	}
	dir := repo.IndexDir
	m, err := store.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Segments) < 3 {
		t.Fatalf("setup: segments %v, want 3 or more", m.Segments)
	}
	before := vlogFiles(dir)

	// The second segment's parts go from the database (their bytes are
	// dead, so the log file is rewritten) but its locator stays.
	failing := m.Segments[1]
	s, err := storewrite.OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteSegmentVectors([]string{failing}, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	n, err := storewrite.RewriteLog(dir, m.Segments)
	if err == nil || !strings.Contains(err.Error(), failing) {
		t.Fatalf("rewrite with segment %s's parts missing: %d files rewritten, error %v; want an error naming it", failing, n, err)
	}
	if n == 0 {
		t.Fatalf("setup: no log file rewritten (log files %v)", before)
	}
	if after := vlogFiles(dir); slices.Contains(after, before[0]) {
		t.Fatalf("setup: log file %s not removed (log files %v)", before[0], after)
	}

	snap, err := store.OpenSnapshot(dir, emb.ID())
	if err != nil {
		t.Fatal(err)
	}
	var damaged, served []string
	for _, d := range snap.Damaged {
		damaged = append(damaged, d.ID)
	}
	for _, seg := range snap.Segments {
		served = append(served, seg.ID)
		if seg.Vec == nil {
			t.Errorf("segment %s served without its vectors", seg.ID)
		} else if err := seg.Vec.Verify(); err != nil {
			t.Errorf("segment %s served with vectors that fail their checks: %v", seg.ID, err)
		}
	}
	snap.Close()
	want := append(slices.Clone(m.Segments[:1]), m.Segments[2:]...)
	if !slices.Equal(damaged, []string{failing}) || !slices.Equal(served, want) {
		t.Errorf("after the failed rewrite: damaged %v, served %v; want %s damaged and %v served", damaged, served, failing, want)
	}
	rep, err := storewrite.Check(context.Background(), dir, func(string) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	var checked []string
	for _, d := range rep.Damaged {
		checked = append(checked, d.Name)
	}
	if !slices.Equal(checked, damaged) {
		t.Errorf("check after the failed rewrite found %v damaged, an open %v", checked, damaged)
	}

	sum := indexRevs(t, r.Dir, emb, "HEAD")
	if !strings.Contains(sum.Repaired, failing) || sum.BlobsNew == 0 {
		t.Errorf("the run after the failed rewrite: repaired %q, %d new blobs", sum.Repaired, sum.BlobsNew)
	}
	fresh := gittest.New(t)
	fresh.Commit("init", files)
	indexRevs(t, fresh.Dir, emb, "HEAD")
	got, wantSnap := openSnap(t, r.Dir, emb), openSnap(t, fresh.Dir, emb)
	if len(got.Damaged) > 0 {
		t.Fatalf("damaged after the repairing run: %v", got.Damaged)
	}
	blobs := strings.Fields(r.Git("ls-tree", "-r", "--format=%(objectname)", "HEAD"))
	if len(blobs) != len(files) {
		t.Fatalf("setup: %d blobs listed", len(blobs))
	}
	for _, sha := range blobs {
		if g, w := blobRows(t, got, sha), blobRows(t, wantSnap, sha); !reflect.DeepEqual(g, w) {
			t.Errorf("blob %s: rows differ from a fresh index's", sha)
		}
		if g, w := blobVectors(t, got, sha), blobVectors(t, wantSnap, sha); !reflect.DeepEqual(g, w) {
			t.Errorf("blob %s: vectors differ from a fresh index's", sha)
		}
	}
}
