package gc

import (
	"context"
	"encoding/binary"
	"os"
	"reflect"
	"slices"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/segment"
	"github.com/bcindex/bcindex/store"
	"github.com/bcindex/bcindex/store/storewrite"
)

// TestGCPublishesOnlyWhenAllPartsAreWritten makes gc's rewrite fail at its
// second part (a file stands where that segment's directory goes): the
// failed gc publishes nothing (the manifest is the old one, the searches
// answer as before) and removes the part it wrote. Then, as a killed run
// would, it leaves a segment directory and a vector part under the first
// ID the rewrite takes: the next gc removes them and finishes.
func TestGCPublishesOnlyWhenAllPartsAreWritten(t *testing.T) {
	_, repo, emb, live, limit := boundedHistory(t)
	ctx := context.Background()
	dir := repo.IndexDir
	m, err := store.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	old, err := os.ReadFile(segment.ManifestPath(dir))
	if err != nil {
		t.Fatal(err)
	}
	before := answers(t, repo, emb)

	first, second := segment.ID(m.Next), segment.ID(m.Next+1)
	vecFile := segment.VectorFileName(emb.ID())
	if err := os.WriteFile(segment.Dir(dir, second), []byte("in the way"), 0o644); err != nil {
		t.Fatal(err)
	}

	ix := indexer.NewIndexer(repo, indexer.Options{Embedder: emb, MergeRows: limit})
	if _, err := GC(ctx, ix, 0, Options{}); err == nil {
		t.Fatal("gc wrote a segment where a file stands")
	}
	if now, err := os.ReadFile(segment.ManifestPath(dir)); err != nil || string(now) != string(old) {
		t.Fatalf("a failed gc published a manifest: %s (%v)", now, err)
	}
	if _, err := os.Stat(segment.Dir(dir, first)); !os.IsNotExist(err) {
		t.Errorf("the part a failed gc wrote is still there: %v", err)
	}
	if after := answers(t, repo, emb); !reflect.DeepEqual(after, before) {
		t.Errorf("answers after a failed gc:\n%v\nbefore:\n%v", after, before)
	}

	os.Remove(segment.Dir(dir, second))
	stale := append([]byte("s/"+first+"/"+vecFile+"/"), binary.BigEndian.AppendUint16(nil, 999)...)
	st, err := storewrite.OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	b := st.NewBatch()
	if err := b.Put(stale, make([]byte, storewrite.MinPart)); err != nil {
		t.Fatal(err)
	}
	if err := b.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(segment.Dir(dir, first), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(segment.File(dir, first, segment.ChunksFile), []byte("left by a killed run"), 0o644); err != nil {
		t.Fatal(err)
	}
	sum, err := GC(ctx, ix, 0, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if sum.LiveBlobs != len(live) || sum.SegmentsAfter < 3 {
		t.Errorf("gc summary %+v", sum)
	}
	m, err = store.ReadManifest(dir)
	if err != nil || !slices.Contains(m.Segments, first) {
		t.Fatalf("manifest after gc %+v %v", m, err)
	}
	if after := answers(t, repo, emb); !reflect.DeepEqual(after, before) {
		t.Errorf("answers after gc:\n%v\nbefore:\n%v", after, before)
	}
	st, err = storewrite.OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	v, err := st.Get(stale)
	st.Close()
	if err != nil || v != nil {
		t.Errorf("the vector part a killed run left under %s survived gc (%d bytes, %v)", first, len(v), err)
	}
	rep, err := storewrite.Check(ctx, dir, repo.CheckListing)
	if err != nil || len(rep.Damaged) > 0 {
		t.Fatalf("check after gc: %v %+v", err, rep)
	}
}

// TestGCDropsOtherModelsFromKeptSegments indexes with one model, then with
// another (which adds its vectors to the segment), and runs gc configured
// with the first and a bound under which the segment is full and holds no
// dead blob: gc still rewrites it, keeping only the first model's vectors,
// and the searches answer as before.
func TestGCDropsOtherModelsFromKeptSegments(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", manyFiles(30))
	r.Git("tag", "v1")
	emb := embed.Default()
	indexRevs(t, r.Dir, emb, "main")
	indexRevs(t, r.Dir, embed.NewHash(), "main")
	repo, err := gitindex.OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	m, err := store.ReadManifest(repo.IndexDir)
	if err != nil || len(m.Segments) != 1 {
		t.Fatalf("manifest %+v %v", m, err)
	}
	names, err := segment.VectorFiles(repo.IndexDir, m.Segments[0])
	if err != nil || len(names) != 2 {
		t.Fatalf("vector files before gc: %v %v", names, err)
	}
	tab := openTable(t, repo.IndexDir, m.Segments[0])
	rows := tab.Nrows
	tab.Close()
	before := answers(t, repo, emb)

	ix := indexer.NewIndexer(repo, indexer.Options{Embedder: emb, MergeRows: rows})
	sum, err := GC(ctx, ix, 0, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if sum.DeadBlobs != 0 || sum.Vectors < rows || sum.SegmentsAfter != 1 {
		t.Errorf("gc summary %+v", sum)
	}
	m, err = store.ReadManifest(repo.IndexDir)
	if err != nil || len(m.Segments) != 1 {
		t.Fatalf("manifest after gc %+v %v", m, err)
	}
	names, err = segment.VectorFiles(repo.IndexDir, m.Segments[0])
	if err != nil || !slices.Equal(names, []string{segment.VectorFileName(emb.ID())}) {
		t.Errorf("vector files after gc: %v %v", names, err)
	}
	if after := answers(t, repo, emb); !reflect.DeepEqual(after, before) {
		t.Errorf("answers after gc:\n%v\nbefore:\n%v", after, before)
	}
	if sum, err := GC(ctx, ix, 0, Options{}); err != nil || sum.Vectors != 0 || sum.SegmentsAfter != 1 {
		t.Errorf("second gc: %+v %v", sum, err)
	}
	if again, err := store.ReadManifest(repo.IndexDir); err != nil || !slices.Equal(again.Segments, m.Segments) {
		t.Errorf("second gc rewrote the segment: %+v (%v)", again, err)
	}
}
