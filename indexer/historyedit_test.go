package indexer

import (
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// TestHistoryChunksEditsFromPreviousVersion indexes a history whose
// commits edit a real Go file, cut into runs of one commit: a version
// whose previous one an earlier run indexed is chunked from it, and every
// version's rows and vectors equal those of an index that chunked each
// from scratch.
func TestHistoryChunksEditsFromPreviousVersion(t *testing.T) {
	defer func(b int) { historyBatch = b }(historyBatch)
	historyBatch = 1
	const name = "bufio/scan.go"
	b, err := os.ReadFile(filepath.Join(runtime.GOROOT(), "src", name))
	if err != nil {
		t.Skipf("GOROOT source not readable: %v", err)
	}
	r := gittest.New(t)
	src := string(b)
	r.Commit("base", map[string]string{name: src, "README.md": "# sample\n"})
	var shas []string
	for i := 0; i < 6; i++ {
		next := editCases[i%3].apply(src) // the three cases Edit takes
		if next == "" {
			t.Fatalf("edit case %d does not apply", i%3)
		}
		src = next
		r.Commit("edit", map[string]string{name: src})
		shas = append(shas, r.Git("rev-parse", "HEAD:"+name))
	}
	repo, err := gitindex.OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	emb := embed.Default()
	sum, err := NewIndexer(repo, Options{Embedder: emb}).IndexHistory(t.Context(), gitindex.HistoryOptions{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	// Every edit follows a version an earlier run indexed; Edit may leave
	// one whose change it cannot place to a full parse.
	if sum.BlobsNew != 8 || sum.BlobsEdited < 4 {
		t.Fatalf("history index: %d new blobs, %d chunked from the previous version; want 8 and at least 4 of the 6 edits", sum.BlobsNew, sum.BlobsEdited)
	}
	fresh := t.TempDir()
	r.Git("clone", "-q", "--no-local", r.Dir, fresh)
	revs := []string{"origin/HEAD"}
	for i := 1; i <= 6; i++ {
		revs = append(revs, "origin/HEAD~"+string(rune('0'+i)))
	}
	if s := indexRevs(t, fresh, emb, revs...); s.BlobsEdited != 0 || s.BlobsNew != 8 {
		t.Fatalf("the fresh index: %d new blobs, %d chunked from previous versions; want 8, 0", s.BlobsNew, s.BlobsEdited)
	}
	got, want := openSnap(t, r.Dir, emb), openSnap(t, fresh, emb)
	for i, sha := range shas {
		g, w := blobRows(t, got, sha), blobRows(t, want, sha)
		if len(g) == 0 || !reflect.DeepEqual(g, w) {
			t.Errorf("version %d: rows differ from a fresh index's (%d rows, want %d)", i+1, len(g), len(w))
		}
		if !reflect.DeepEqual(blobVectors(t, got, sha), blobVectors(t, want, sha)) {
			t.Errorf("version %d: vectors differ from a fresh index's", i+1)
		}
	}
}
