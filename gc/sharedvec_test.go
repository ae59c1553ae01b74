package gc

import (
	"os"
	"slices"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/testkit/storetest"
	"github.com/bcindex/bcindex/segment"
	"github.com/bcindex/bcindex/store"
)

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
			// Segments of 10 rows and more are full: gc rewrites only
			// those that hold a dead blob and keeps the others, which
			// share their vectors.
			sum, indexDir := runGC(t, r.Dir, emb, 20)
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
				if n := storetest.PartKeys(t, indexDir, before[2]); n != 0 || slices.Contains(after, before[2]) {
					t.Errorf("the deleted branch's segment keeps %d parts (live %v)", n, after)
				}
			}
			// A part stays exactly while a live locator names it.
			named := map[string]bool{}
			name := segment.VectorFileName(emb.ID())
			for _, id := range after {
				l, err := segment.ReadLocator(segment.File(indexDir, id, name))
				if err != nil {
					t.Fatal(err)
				}
				for _, p := range l.Parts {
					named[p.Owner] = true
				}
			}
			for _, id := range before {
				if n := storetest.PartKeys(t, indexDir, id); (n > 0) != named[id] {
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
