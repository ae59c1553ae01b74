package store_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/internal/atomicfile"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/segment"
	"github.com/bcindex/bcindex/store"
)

// indexedView indexes a one-commit repository with vectors and returns a
// view of it.
func indexedView(t testing.TB) *store.View {
	t.Helper()
	r := gittest.New(t)
	r.Commit("one", map[string]string{"net/retry.go": gittest.RetryGo})
	repo, err := gitindex.OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { repo.Close() })
	head, err := repo.Resolve("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	v, _, err := indexer.Ensure(context.Background(), repo, indexer.Options{Embedder: embed.Default()},
		indexer.Request{Want: store.Want{Commits: []gitindex.Commit{head}}, Parts: indexer.All})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(v.Close)
	if v.Model == "" || len(v.Snap.Segments) == 0 || v.Snap.Segments[0].Vec == nil {
		t.Fatalf("view of model %q with %d segments: want vectors", v.Model, len(v.Snap.Segments))
	}
	return v
}

// replace writes path anew with its own bytes (a new file renamed over
// it, as the index writes), back at its old modification time.
func replace(t *testing.T, path string) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := atomicfile.Write(path, b); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
}

// overwrite changes byte at in place, keeping the file's size and
// modification time.
func overwrite(t *testing.T, path string, at int64) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 1)
	if _, err := f.ReadAt(b, at); err != nil {
		t.Fatal(err)
	}
	b[0] ^= 0x55
	if _, err := f.WriteAt(b, at); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
}

func reopen(t *testing.T, v *store.View, why string) {
	t.Helper()
	if v.Current() {
		t.Fatalf("%s: the view still says it is current", why)
	}
	if err := v.Reopen(); err != nil {
		t.Fatalf("%s: reopen: %v", why, err)
	}
	if !v.Current() {
		t.Fatalf("%s: reopened, the view is not current", why)
	}
}

// TestViewCurrent: a view is current until a file it read is replaced or
// written to, whatever the file's size and modification time say.
func TestViewCurrent(t *testing.T) {
	v := indexedView(t)
	dir := v.Repo.IndexDir
	if !v.Current() || !v.Current() {
		t.Fatal("a view of an unchanged index is not current")
	}
	manifest := segment.ManifestPath(dir)
	id := v.Snap.Segments[0].ID

	replace(t, manifest) // another file, same bytes, size and time
	reopen(t, v, "manifest replaced")

	overwrite(t, manifest, 20) // same file, size and time, other bytes
	if v.Current() {
		t.Fatal("manifest written in place: the view still says it is current")
	}
	overwrite(t, manifest, 20) // the bytes back
	if !v.Current() {
		t.Fatal("manifest written back: the view is not current")
	}

	replace(t, segment.File(dir, id, segment.VectorFileName(v.Model)))
	reopen(t, v, "vector locator replaced")

	// A rebuild: the same manifest, the same segment names, other files.
	b, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{segment.ChunksFile, segment.LexFile, segment.GramsFile} {
		replace(t, segment.File(dir, id, f))
	}
	if err := os.WriteFile(manifest, b, 0o644); err != nil {
		t.Fatal(err)
	}
	reopen(t, v, "segment files replaced")

	// A flipped byte in a segment file: the view that opens it again
	// finds the damage (a view kept open would not look).
	grams := segment.File(dir, id, segment.GramsFile)
	fi, err := os.Stat(grams)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(10 * time.Millisecond) // a change time the record of verified versions has not seen
	overwrite(t, grams, fi.Size()/2)
	if v.Current() {
		t.Fatal("segment file written in place: the view still says it is current")
	}
	if err := v.Reopen(); err != nil {
		t.Fatal(err)
	}
	if len(v.Damaged) == 0 {
		t.Fatal("a flipped byte in the trigrams: the reopened view names no damage")
	}
}

// BenchmarkViewCurrent: what a server pays per request to check that the
// view it kept is current (one segment).
func BenchmarkViewCurrent(b *testing.B) {
	v := indexedView(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if !v.Current() {
			b.Fatal("not current")
		}
	}
}
