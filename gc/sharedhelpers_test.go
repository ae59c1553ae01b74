package gc

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/store"
)

// functionsFile is a Go file of n functions, those in edited changed.
func functionsFile(pkg string, n int, edited ...int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "package %s\n", pkg)
	for f := 0; f < n; f++ {
		body := fmt.Sprintf("return %d", f)
		if slices.Contains(edited, f) {
			body = fmt.Sprintf("return %d * 7", f)
		}
		fmt.Fprintf(&b, "\n// %sF%d computes %s value %d.\nfunc F%d() int {\n\t%s\n}\n", pkg, f, pkg, f, f, body)
	}
	return b.String()
}

// sharingRepo commits two versions of three files, the second editing
// one function of one file and adding a file, on branches old and main.
func sharingRepo(t *testing.T) *gittest.Repo {
	r := gittest.New(t)
	r.Commit("v1", map[string]string{"a/a.go": functionsFile("a", 10), "b/b.go": functionsFile("b", 10), "c/c.go": functionsFile("c", 10)})
	r.Git("branch", "old")
	r.Commit("v2", map[string]string{"a/a.go": functionsFile("a", 10, 3), "d/d.go": functionsFile("d", 8)})
	return r
}

// scored is a row of the index as a search answers it: its blob, its
// place among the blob's rows, and its score.
type scored struct {
	blob  string
	row   int
	score float32
}

// searchAll scores every row of the index that has a vector against
// each query, in a stable order: by score, then blob and row.
func searchAll(t *testing.T, dir string, emb embed.Embedder, queries []string) [][]scored {
	t.Helper()
	repo, err := gitindex.OpenRepo(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	snap, err := store.OpenSnapshot(repo.IndexDir, emb.ID())
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Close()
	if len(snap.Damaged) > 0 {
		t.Fatalf("damaged: %v", snap.Damaged)
	}
	vecs, err := emb.Embed(context.Background(), queries, embed.RoleQuery)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]scored
	for _, q := range vecs {
		var all []scored
		for _, seg := range snap.Segments {
			hits, err := seg.Vec.Search(q, seg.Rows(), nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, h := range hits {
				b := seg.BlobOf(h.Row)
				all = append(all, scored{seg.BlobSHA(b).String(), h.Row - seg.BlobFirst(h.Row), h.Score})
			}
		}
		slices.SortFunc(all, func(a, b scored) int {
			switch {
			case a.score != b.score:
				if a.score > b.score {
					return -1
				}
				return 1
			case a.blob != b.blob:
				return strings.Compare(a.blob, b.blob)
			}
			return a.row - b.row
		})
		if len(all) == 0 {
			t.Fatal("no row scored")
		}
		out = append(out, all)
	}
	return out
}

var sharingQueries = []string{"compute a value", "a function returning seven times", "d value 3"}

// referenceIndex indexes revs of a clone of r in one run: one segment,
// which shares nothing.
func referenceIndex(t *testing.T, r *gittest.Repo, emb embed.Embedder, revs ...string) string {
	dir := filepath.Join(t.TempDir(), "ref")
	r.Git("clone", "-q", "--mirror", r.Dir, dir)
	indexRevs(t, dir, emb, revs...)
	return dir
}

// distinctContents counts the content hashes with a vector in the index.
func distinctContents(t *testing.T, dir string, emb embed.Embedder) (int, []string) {
	t.Helper()
	repo, err := gitindex.OpenRepo(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	snap, err := store.OpenSnapshot(repo.IndexDir, emb.ID())
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Close()
	seen := map[[16]byte]bool{}
	var ids []string
	for _, seg := range snap.Segments {
		ids = append(ids, seg.ID)
		for r := 0; r < seg.Rows(); r++ {
			if h, indexed := seg.RowHash(r); indexed {
				if q, _ := seg.Vec.Row(r); q != nil {
					seen[h] = true
				}
			}
		}
	}
	return len(seen), ids
}

// runGC runs gc on the repository at dir with merges of up to mergeRows
// rows and returns its summary and the repository's index directory.
func runGC(t *testing.T, dir string, emb embed.Embedder, mergeRows int) (*Summary, string) {
	t.Helper()
	repo, err := gitindex.OpenRepo(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	sum, err := GC(context.Background(), indexer.NewIndexer(repo, indexer.Options{Embedder: emb, MergeRows: mergeRows}), 0, Options{})
	if err != nil {
		t.Fatalf("gc: %v", err)
	}
	return sum, repo.IndexDir
}
