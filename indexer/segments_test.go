package indexer

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/segment"
	"github.com/bcindex/bcindex/store"
	"github.com/bcindex/bcindex/store/storewrite"
)

func TestCorruptSegmentIsReported(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", map[string]string{"a.go": goFile})
	indexRevs(t, r.Dir, nil, "HEAD")
	repo, _ := gitindex.OpenRepo(r.Dir)
	m, _ := store.ReadManifest(repo.IndexDir)
	p := segment.File(repo.IndexDir, m.Segments[0], "chunks.bin")
	if err := os.WriteFile(p, []byte("BCSEG001garbage-that-is-long-enough-to-pass-the-size-check-000000000"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The damaged segment is left out, never served, and reported.
	snap, err := store.OpenSnapshot(repo.IndexDir, "")
	if err != nil {
		t.Fatalf("open snapshot with a corrupt segment: %v", err)
	}
	defer snap.Close()
	if len(snap.Segments) != 0 || len(snap.Damaged) != 1 || !errors.Is(snap.Damaged[0].Err, store.ErrCorrupt) {
		t.Fatalf("snapshot: %d segments, damaged %v; want the one segment left out as corrupt", len(snap.Segments), snap.Damaged)
	}
	// The next run sets it aside and indexes its blob again.
	if sum := indexRevs(t, r.Dir, nil, "HEAD"); sum.BlobsNew != 1 || !strings.Contains(sum.Repaired, "is damaged") {
		t.Fatalf("index after damage: %d new blobs, repaired %q", sum.BlobsNew, sum.Repaired)
	}
}

func TestBlobIndexFindsEveryBlob(t *testing.T) {
	// Blobs sharing their first eight bytes, and blobs at both ends of the
	// key space, besides uniformly spread ones.
	shared := func(i int) [20]byte {
		sha := sha1Of(fmt.Sprint("shared", i))
		copy(sha[:8], "\x7fsame8by")
		return sha
	}
	edge := func(b byte, i int) [20]byte {
		sha := sha1Of(fmt.Sprint("edge", b, i))
		for k := 0; k < 8; k++ {
			sha[k] = b
		}
		return sha
	}
	for _, n := range []int{0, 1, 2, 3, 100, 5000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			var w segment.TableWriter
			shas := map[[20]byte]bool{}
			add := func(sha [20]byte) {
				if !shas[sha] {
					shas[sha] = true
					w.AddBlob(sha, segment.BlobInfo{}, []segment.Row{{Parent: -1, Kind: "file"}})
				}
			}
			for i := 0; i < n; i++ {
				add(sha1Of(fmt.Sprint(i)))
				if n >= 100 && i < 10 {
					add(shared(i))
					add(edge(0, i))
					add(edge(0xff, i))
				}
			}
			ct, err := segment.ParseTable(w.Encode())
			if err != nil {
				t.Fatal(err)
			}
			for sha := range shas {
				i, ok := ct.BlobIndex(sha)
				if !ok || ct.BlobSHA(i) != sha {
					t.Fatalf("blob %x not found (%d, %v)", sha, i, ok)
				}
			}
			absent := []([20]byte){shared(-1), edge(0, -1), edge(0xff, -1), {}, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}}
			for i := 0; i < 1000; i++ {
				absent = append(absent, sha1Of(fmt.Sprint("absent", i)))
			}
			for _, sha := range absent {
				if _, _, ok := ct.FindBlob(sha); ok {
					t.Fatalf("absent blob %x found", sha)
				}
			}
		})
	}
}

func sha1Of(s string) [20]byte {
	var h [20]byte
	sum := store.ContentHash(s)
	copy(h[:], sum[:])
	copy(h[16:], sum[:4])
	return h
}

// TestBlobsRepackedAfterOpen packs the objects (as a background git gc
// would) after the repository was opened: reading a blob still works.
func TestBlobsRepackedAfterOpen(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", map[string]string{"calc.go": goFile})
	r.Git("repack", "-a", "-d", "-q") // a pack go-git will know about
	repo, err := gitindex.OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	c, err := repo.Resolve("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	l, err := repo.Listing(c.Tree)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := repo.ReadBlob(l.Entries[0].Blob); err != nil {
		t.Fatal(err)
	}
	r.Commit("more", map[string]string{"more.go": "package calc\n\nfunc More() {}\n"})
	r.Git("repack", "-a", "-d", "-q")
	r.Git("prune-packed")
	c2, err := repo.Resolve("HEAD")
	if err != nil {
		t.Fatalf("resolve HEAD after repack: %v", err)
	}
	l2, err := repo.Listing(c2.Tree)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range append(l.Entries, l2.Entries...) {
		if _, err := repo.ReadBlob(e.Blob); err != nil {
			t.Fatalf("read %s after repack: %v", e.Path, err)
		}
	}
}

// setManifestSchema rewrites the manifest as if another schema wrote it.
func setManifestSchema(t *testing.T, indexDir string, schema int) {
	t.Helper()
	m, err := store.ReadManifest(indexDir)
	if err != nil {
		t.Fatal(err)
	}
	m.Schema = schema
	if err := storewrite.WriteManifest(indexDir, m); err != nil {
		t.Fatal(err)
	}
}

// TestOlderSchemaIsRebuilt: an index written by an older schema is rebuilt
// by the next run; one written by a newer schema is left alone and reported.
func TestOlderSchemaIsRebuilt(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", map[string]string{"a.go": goFile})
	indexRevs(t, r.Dir, nil, "HEAD")
	repo, err := gitindex.OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}

	setManifestSchema(t, repo.IndexDir, store.SchemaVersion-1)
	if _, err := store.OpenSnapshot(repo.IndexDir, ""); !errors.Is(err, store.ErrSchema) {
		t.Fatalf("open an older index: %v, want ErrSchema", err)
	}
	sum := indexRevs(t, r.Dir, nil, "HEAD")
	if sum.RebuiltFrom != store.SchemaVersion-1 || sum.BlobsNew != 1 {
		t.Fatalf("summary %+v: want a rebuild from schema %d that indexes the blob again", sum, store.SchemaVersion-1)
	}
	snap, err := store.OpenSnapshot(repo.IndexDir, "")
	if err != nil {
		t.Fatalf("open the rebuilt index: %v", err)
	}
	snap.Close()

	setManifestSchema(t, repo.IndexDir, store.SchemaVersion+1)
	_, err = NewIndexer(repo, Options{}).Index(context.Background(), []string{"HEAD"}, 0)
	if !errors.Is(err, store.ErrSchema) {
		t.Fatalf("index over a newer index: %v, want ErrSchema", err)
	}
	if got, err := store.DecodeManifest(repo.IndexDir); err != nil || got.Schema != store.SchemaVersion+1 {
		t.Fatalf("the newer index was touched: %+v, %v", got, err)
	}
}

func TestSchemaMismatchIsReported(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", map[string]string{"a.go": goFile})
	indexRevs(t, r.Dir, nil, "HEAD")
	repo, _ := gitindex.OpenRepo(r.Dir)
	m, err := store.ReadManifest(repo.IndexDir)
	if err != nil {
		t.Fatal(err)
	}
	m.Schema = store.SchemaVersion + 1
	if err := storewrite.WriteManifest(repo.IndexDir, m); err != nil {
		t.Fatal(err)
	}
	if _, err := store.OpenSnapshot(repo.IndexDir, ""); !errors.Is(err, store.ErrSchema) {
		t.Fatalf("open snapshot of another schema: %v, want ErrSchema", err)
	}
}
