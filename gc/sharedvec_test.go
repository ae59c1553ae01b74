package gc

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dgraph-io/badger/v4"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/segment"
	"github.com/bcindex/bcindex/store"
	"github.com/bcindex/bcindex/store/storewrite"
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

// partKeys counts the vector parts Badger holds for segment id.
func partKeys(t *testing.T, indexDir, id string) int {
	t.Helper()
	st, err := storewrite.OpenStore(indexDir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	n := 0
	err = st.DB.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: []byte("s/" + id + "/")})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			n++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestSharedVectorsStoredOnce: a segment of a second run stores only the
// vectors of contents the first run's segment does not, shares the rest,
// and every row scores as in an index built in one run.
func TestSharedVectorsStoredOnce(t *testing.T) {
	r := sharingRepo(t)
	emb := embed.Default()
	indexRevs(t, r.Dir, emb, "old")
	indexRevs(t, r.Dir, emb, "main")
	distinct, ids := distinctContents(t, r.Dir, emb)
	repo, _ := gitindex.OpenRepo(r.Dir)
	defer repo.Close()
	if len(ids) != 2 {
		t.Fatalf("%d segments, want 2", len(ids))
	}
	l, err := segment.ReadLocator(segment.File(repo.IndexDir, ids[1], segment.VectorFileName(emb.ID())))
	if err != nil {
		t.Fatal(err)
	}
	if l.Slots == nil || !slices.ContainsFunc(l.Parts, func(p segment.PartLoc) bool { return p.Owner == ids[0] }) {
		t.Fatalf("the second segment shares no part of the first: %+v", l.Parts)
	}
	// Every content once: 31 of the first run, the edit's function and
	// file and the new file's 9 of the second.
	if stored := store.VectorRows(repo.IndexDir, ids); stored != distinct {
		t.Errorf("%d vectors stored for %d distinct contents", stored, distinct)
	}
	ref := referenceIndex(t, r, emb, "old", "main")
	if got, want := searchAll(t, r.Dir, emb, sharingQueries), searchAll(t, ref, emb, sharingQueries); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("scores differ from an index of one segment:\n%v\n%v", got, want)
	}
}

// TestGCKeepsSharedVectors: gc after a branch is deleted drops the
// vectors only its segment stored and keeps those another segment shares;
// every live row scores as in an index of the live revision alone.
func TestGCKeepsSharedVectors(t *testing.T) {
	for _, deleted := range []string{"feature", "old"} {
		t.Run(deleted, func(t *testing.T) {
			r := sharingRepo(t)
			r.Git("branch", "feature")
			r.Git("checkout", "-q", "feature")
			r.Commit("v3", map[string]string{"b/b.go": functionsFile("b", 10, 5)})
			r.Git("checkout", "-q", "main")
			emb := embed.Default()
			indexRevs(t, r.Dir, emb, "old")
			indexRevs(t, r.Dir, emb, "main")
			indexRevs(t, r.Dir, emb, "feature")
			_, before := distinctContents(t, r.Dir, emb)
			r.Git("branch", "-q", "-D", deleted)
			repo, err := gitindex.OpenRepo(r.Dir)
			if err != nil {
				t.Fatal(err)
			}
			defer repo.Close()
			// Segments of 10 rows and more are full: gc rewrites only
			// those that hold a dead blob and keeps the others, which
			// share their vectors.
			sum, err := GC(context.Background(), indexer.NewIndexer(repo, indexer.Options{Embedder: emb, MergeRows: 20}), 0, Options{})
			if err != nil {
				t.Fatal(err)
			}
			// Deleting feature drops its segment, whose vectors no other
			// shares; deleting old rewrites its segment without the dead
			// blob, and keeps its parts, which main's segment shares.
			if sum.DeadBlobs != 1 || deleted == "feature" && (sum.Vectors == 0 || sum.SegmentsAfter != 2) || deleted == "old" && sum.SegmentsAfter < 3 {
				t.Errorf("gc summary %+v", sum)
			}
			live := []string{"main", "feature", "old"}
			live = slices.DeleteFunc(live, func(s string) bool { return s == deleted })
			ref := referenceIndex(t, r, emb, live...)
			if got, want := searchAll(t, r.Dir, emb, sharingQueries), searchAll(t, ref, emb, sharingQueries); !slices.EqualFunc(got, want, slices.Equal) {
				t.Errorf("after gc, scores differ from an index of the live revisions:\n%v\n%v", got, want)
			}
			_, after := distinctContents(t, r.Dir, emb)
			if deleted == "feature" {
				// Its segment stored only the edit's vectors: gone.
				if n := partKeys(t, repo.IndexDir, before[2]); n != 0 || slices.Contains(after, before[2]) {
					t.Errorf("the deleted branch's segment keeps %d parts (live %v)", n, after)
				}
			}
			// A part stays exactly while a live locator names it.
			named := map[string]bool{}
			name := segment.VectorFileName(emb.ID())
			for _, id := range after {
				l, err := segment.ReadLocator(segment.File(repo.IndexDir, id, name))
				if err != nil {
					t.Fatal(err)
				}
				for _, p := range l.Parts {
					named[p.Owner] = true
				}
			}
			for _, id := range before {
				if n := partKeys(t, repo.IndexDir, id); (n > 0) != named[id] {
					t.Errorf("segment %s: %d parts in the store, named by a live locator: %v", id, n, named[id])
				}
			}
			// The next run reads the shared parts as they are now.
			indexRevs(t, r.Dir, emb, live...)
			if got, want := searchAll(t, r.Dir, emb, sharingQueries), searchAll(t, ref, emb, sharingQueries); !slices.EqualFunc(got, want, slices.Equal) {
				t.Errorf("after gc and a run, scores differ")
			}
		})
	}
}

// TestDamagedSharedPartIsRebuilt: a flipped byte in a part that two
// segments share leaves both out of every search, and the next run
// indexes their blobs again, to the scores of an index built in one run.
func TestDamagedSharedPartIsRebuilt(t *testing.T) {
	r := sharingRepo(t)
	emb := embed.Default()
	indexRevs(t, r.Dir, emb, "old")
	indexRevs(t, r.Dir, emb, "main")
	repo, err := gitindex.OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	_, ids := distinctContents(t, r.Dir, emb)
	l, err := segment.ReadLocator(segment.File(repo.IndexDir, ids[0], segment.VectorFileName(emb.ID())))
	if err != nil {
		t.Fatal(err)
	}
	p := l.Parts[0]
	path := segment.VlogPath(repo.IndexDir, p.Fid)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b[p.Off+p.Len-5] ^= 0x40 // a scale's byte
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	snap, err := store.OpenSnapshot(repo.IndexDir, emb.ID())
	if err != nil {
		t.Fatal(err)
	}
	var damaged []string
	for _, d := range snap.Damaged {
		damaged = append(damaged, d.ID)
	}
	snap.Close()
	if !slices.Equal(damaged, ids) {
		t.Fatalf("damaged %v, want both segments %v", damaged, ids)
	}
	indexRevs(t, r.Dir, emb, "old", "main")
	ref := referenceIndex(t, r, emb, "old", "main")
	if got, want := searchAll(t, r.Dir, emb, sharingQueries), searchAll(t, ref, emb, sharingQueries); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("after the rebuild, scores differ from an index of one segment")
	}
}
