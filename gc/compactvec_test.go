package gc

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/store"
	"github.com/bcindex/bcindex/store/storewrite"
)

// versionsRepo commits n versions of two files, version v editing
// function v of a.go and function v/2 of b.go, each tagged v<v>.
func versionsRepo(t *testing.T, n int) (*gittest.Repo, []string) {
	r := gittest.New(t)
	var tags []string
	for v := 0; v < n; v++ {
		r.Commit(fmt.Sprintf("v%d", v), map[string]string{
			"a/a.go": functionsFile("a", 12, v),
			"b/b.go": functionsFile("b", 12, v/2, 11),
		})
		tag := fmt.Sprintf("v%d", v)
		r.Git("tag", tag)
		tags = append(tags, tag)
	}
	return r, tags
}

// storedVectors is how many vectors the parts the live segments name
// hold, and how many of them no live locator uses.
func storedVectors(t *testing.T, dir string, emb embed.Embedder) (stored, dead int) {
	t.Helper()
	_, ids := distinctContents(t, dir, emb)
	repo, err := gitindex.OpenRepo(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	dead, _ = storewrite.DeadVectors(repo.IndexDir, ids)
	return store.VectorRows(repo.IndexDir, ids), dead
}

// TestMergesShareAndGCCompacts: runs of one version each, whose merges
// share the parts the segments that stay name, store each content's
// vector once, beside the dead vectors of the merged segments' parts; gc
// rewrites those parts without them, and every row scores as before and
// as in an index of the same revisions built in one run.
func TestMergesShareAndGCCompacts(t *testing.T) {
	defer func(floor int64) { storewrite.TidyFloor = floor }(storewrite.TidyFloor)
	storewrite.TidyFloor = 1 << 40 // no compaction at the runs' ends
	const versions = 12            // more runs than maxSegments: they merge
	r, tags := versionsRepo(t, versions)
	emb := embed.Default()
	for _, tag := range tags {
		indexRevs(t, r.Dir, emb, tag)
	}
	distinct, ids := distinctContents(t, r.Dir, emb)
	if len(ids) >= versions {
		t.Fatalf("%d segments for %d runs: none merged", len(ids), versions)
	}
	stored, dead := storedVectors(t, r.Dir, emb)
	t.Logf("%d segments: %d vectors stored, %d of them dead, %d distinct contents", len(ids), stored, dead, distinct)
	if stored-dead != distinct {
		t.Errorf("%d live vectors stored for %d distinct contents: some stored twice", stored-dead, distinct)
	}
	if dead == 0 {
		t.Fatal("no merged segment's part left shared: nothing to compact")
	}
	before := searchAll(t, r.Dir, emb, sharingQueries)

	// Segments of 10 rows and more are full: gc rewrites none of them.
	sum, indexDir := runGC(t, r.Dir, emb, 20)
	if sum.PartsCompacted == 0 || sum.Vectors < dead {
		t.Errorf("gc summary %+v, %d dead vectors before", sum, dead)
	}
	if after, dead := storedVectors(t, r.Dir, emb); after != distinct || dead != 0 {
		t.Errorf("after gc: %d vectors stored (%d dead) for %d distinct contents", after, dead, distinct)
	}
	if got := searchAll(t, r.Dir, emb, sharingQueries); !slices.EqualFunc(got, before, slices.Equal) {
		t.Errorf("after gc, scores differ from before:\n%v\n%v", got, before)
	}
	if rep, err := storewrite.Check(context.Background(), indexDir, func(string) error { return nil }); err != nil || len(rep.Damaged) > 0 {
		t.Errorf("check after gc: %+v, %v", rep, err)
	}
	ref := referenceIndex(t, r, emb, tags...)
	if got, want := searchAll(t, r.Dir, emb, sharingQueries), searchAll(t, ref, emb, sharingQueries); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("after gc, scores differ from an index of one run:\n%v\n%v", got, want)
	}
	// The next runs share the compacted parts, and a store checked after
	// them holds no damaged segment.
	r.Commit("next", map[string]string{"a/a.go": functionsFile("a", 12, 1, 2)})
	indexRevs(t, r.Dir, emb, "HEAD")
	distinct, _ = distinctContents(t, r.Dir, emb)
	if stored, dead := storedVectors(t, r.Dir, emb); stored-dead != distinct {
		t.Errorf("after a run: %d live vectors stored for %d distinct contents", stored-dead, distinct)
	}
	ref = referenceIndex(t, r, emb, append(tags, "HEAD")...)
	if got, want := searchAll(t, r.Dir, emb, sharingQueries), searchAll(t, ref, emb, sharingQueries); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("after gc and a run, scores differ from an index of one run")
	}
}

// TestRunsCompactAtTheirEnd: with a low floor, each run's end rewrites
// the parts its merges left dead vectors in, so the runs alone leave one
// vector per distinct content, scoring as an index built in one run.
func TestRunsCompactAtTheirEnd(t *testing.T) {
	defer func(floor int64) { storewrite.TidyFloor = floor }(storewrite.TidyFloor)
	storewrite.TidyFloor = 4 // compact any dead vector
	const versions = 12
	r, tags := versionsRepo(t, versions)
	emb := embed.Default()
	for _, tag := range tags {
		indexRevs(t, r.Dir, emb, tag)
	}
	distinct, ids := distinctContents(t, r.Dir, emb)
	if len(ids) >= versions {
		t.Fatalf("%d segments for %d runs: none merged", len(ids), versions)
	}
	if stored, dead := storedVectors(t, r.Dir, emb); stored != distinct || dead != 0 {
		t.Errorf("%d vectors stored (%d dead) for %d distinct contents", stored, dead, distinct)
	}
	ref := referenceIndex(t, r, emb, tags...)
	if got, want := searchAll(t, r.Dir, emb, sharingQueries), searchAll(t, ref, emb, sharingQueries); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("scores differ from an index of one run:\n%v\n%v", got, want)
	}
}

// TestGCSegmentsShareEachOther: gc rewrites stale segments into several,
// each sharing what the ones written before it store, so the store holds
// one vector per distinct content, scoring as an index of the live
// revisions built in one run.
func TestGCSegmentsShareEachOther(t *testing.T) {
	const versions = 12
	r, tags := versionsRepo(t, versions)
	// A file of another path whose functions are a.go's, in another blob:
	// gc packs blobs by path, so it lands in another segment than a.go.
	r.Commit("copy", map[string]string{"z/z.go": functionsFile("a", 13, versions-1)})
	r.Git("tag", "copy")
	tags = append(tags, "copy")
	emb := embed.Default()
	for _, tag := range tags {
		indexRevs(t, r.Dir, emb, tag)
	}
	for _, tag := range tags[:4] {
		r.Git("tag", "-d", tag)
	}
	sum, _ := runGC(t, r.Dir, emb, 40)
	distinct, ids := distinctContents(t, r.Dir, emb)
	if stored, dead := storedVectors(t, r.Dir, emb); stored != distinct || dead != 0 || len(ids) < 2 {
		t.Errorf("gc %+v: %d segments, %d vectors stored (%d dead) for %d distinct contents", sum, len(ids), stored, dead, distinct)
	}
	ref := referenceIndex(t, r, emb, append([]string{"HEAD"}, tags[4:]...)...)
	if got, want := searchAll(t, r.Dir, emb, sharingQueries), searchAll(t, ref, emb, sharingQueries); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("after gc, scores differ from an index of the live revisions:\n%v\n%v", got, want)
	}
}
