package indexer

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/dgraph-io/badger/v4"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/segment"
	"github.com/bcindex/bcindex/store"
)

// indexHEAD indexes a repository's HEAD and opens it (closed when the
// test ends) and its manifest.
func indexHEAD(t *testing.T, dir string, emb embed.Embedder) (*gitindex.Repo, *store.Manifest) {
	t.Helper()
	indexRevs(t, dir, emb, "HEAD")
	repo, err := gitindex.OpenRepo(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { repo.Close() })
	m, err := store.ReadManifest(repo.IndexDir)
	if err != nil || len(m.Segments) == 0 {
		t.Fatalf("manifest: %v, %v", m, err)
	}
	return repo, m
}

// TestVectorsAreStoredOnceInBadger: a segment's vectors are Badger values,
// and the bytes a query maps through the segment's locator are those very
// values, in Badger's log files; the segment directory holds no vectors.
func TestVectorsAreStoredOnceInBadger(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", manyFiles(40))
	emb := embed.Default()
	repo, m := indexHEAD(t, r.Dir, emb)
	if len(m.Segments) != 1 {
		t.Fatalf("manifest %v", m)
	}
	id, name := m.Segments[0], segment.VectorFileName(emb.ID())
	l, err := segment.ReadLocator(segment.File(repo.IndexDir, id, name))
	if err != nil {
		t.Fatal(err)
	}
	if l.Rows == 0 || l.Dim != emb.Dim() || len(l.Parts) != 1 {
		t.Fatalf("locator %+v", l)
	}
	var segBytes int64 // but the blobs' bytes, which exact search reads
	filepath.Walk(filepath.Join(repo.IndexDir, "segments", id), func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() && fi.Name() != segment.ContentFile {
			segBytes += fi.Size()
		}
		return nil
	})
	if vecBytes := int64(l.Rows * l.Dim); segBytes >= vecBytes {
		t.Errorf("the segment directory holds %d bytes, the vectors alone are %d: they are stored there too", segBytes, vecBytes)
	}
	mapped := make([][]byte, len(l.Parts))
	for i, p := range l.Parts {
		b, err := os.ReadFile(segment.VlogPath(repo.IndexDir, p.Fid))
		if err != nil {
			t.Fatal(err)
		}
		mapped[i] = b[p.Off : p.Off+p.Len]
	}
	db, err := badger.Open(badger.DefaultOptions(filepath.Join(repo.IndexDir, "db")).WithLogger(nil).WithReadOnly(true))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	parts := 0
	err = db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: []byte("s/" + id + "/" + name + "/")})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			v, err := it.Item().ValueCopy(nil)
			if err != nil {
				return err
			}
			if parts >= len(mapped) || !bytes.Equal(v[:len(mapped[parts])], mapped[parts]) {
				t.Errorf("part %d: Badger's value differs from the mapped bytes", parts)
			}
			parts++
		}
		return nil
	})
	if err != nil || parts != len(l.Parts) {
		t.Fatalf("%d parts in Badger, %d in the locator (%v)", parts, len(l.Parts), err)
	}
	snap, err := store.OpenSnapshot(repo.IndexDir, emb.ID())
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Close()
	if v := snap.Segments[0].Vec; v == nil || v.Len() != l.Rows {
		t.Fatalf("snapshot vectors %v", v)
	}
}

// TestValueLogStaysBounded: every indexing run that writes starts a value
// log file; runs keep the count bounded by rewriting the log, and the
// moved vectors stay where the locators say.
func TestValueLogStaysBounded(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", manyFiles(20))
	emb := embed.Default()
	indexRevs(t, r.Dir, emb, "HEAD")
	most := 0
	for i := 0; i < 40; i++ {
		r.Commit("one more", map[string]string{fmt.Sprintf("n/f%d.go", i): fmt.Sprintf("package n\n\n// G%d returns %d.\nfunc G%d() int { return %d }\n", i, i, i, i)})
		indexRevs(t, r.Dir, emb, "HEAD")
		names, _ := filepath.Glob(filepath.Join(r.Dir, ".git", "bcindex", "db", "*.vlog"))
		most = max(most, len(names))
	}
	if most > 33 {
		t.Errorf("the value log reached %d files", most)
	}
	repo, err := gitindex.OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	snap, err := store.OpenSnapshot(repo.IndexDir, emb.ID())
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Close()
	rows := 0
	for _, seg := range snap.Segments {
		if seg.Vec == nil {
			t.Fatalf("segment %s has no vectors", seg.ID)
		}
		if err := seg.Vec.Verify(); err != nil {
			t.Fatal(err)
		}
		rows += seg.Vec.Len()
	}
	if len(snap.Damaged) != 0 || rows < 60 {
		t.Fatalf("%d vector rows, damaged %v", rows, snap.Damaged)
	}
}
