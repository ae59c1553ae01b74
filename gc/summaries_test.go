package gc

import (
	"context"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/internal/testkit/storetest"
	"github.com/bcindex/bcindex/store"
	"github.com/bcindex/bcindex/store/storewrite"
)

// rowHashes returns the content hashes of the indexed rows of the blob at
// path in rev.
func rowHashes(t *testing.T, repo *gitindex.Repo, rev, path string) [][16]byte {
	t.Helper()
	c, err := repo.Resolve(rev)
	if err != nil {
		t.Fatal(err)
	}
	l, err := repo.Listing(c.Tree)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := store.OpenSnapshot(repo.IndexDir, "")
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Close()
	var blob plumbing.Hash
	for _, e := range l.Entries {
		if e.Path == path {
			blob = e.Blob
		}
	}
	loc, ok := snap.FindBlob(blob)
	if !ok {
		t.Fatalf("%s of %s is not indexed", path, rev)
	}
	var out [][16]byte
	for i := loc.First; i < loc.First+loc.N; i++ {
		if h, ok := snap.Segments[loc.Seg].RowHash(i); ok {
			out = append(out, h)
		}
	}
	if len(out) == 0 {
		t.Fatalf("%s of %s has no indexed rows", path, rev)
	}
	return out
}

// gc drops the summaries (every model and prompt version) of texts only a
// deleted branch held, from the store and from the summary index; the
// summaries of live texts, and of texts no segment holds (fetched, or of
// a revision never indexed here), stay, and a second gc drops nothing.
func TestGCDropsSummariesOfDeadTexts(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", manyFiles(4))
	r.Git("checkout", "-q", "-b", "feature")
	r.Commit("feature", map[string]string{"feat/x.go": "package feat\n\n// Experimental does something new.\nfunc Experimental() {}\n"})
	r.Git("checkout", "-q", "main")
	emb := embed.Default()
	indexRevs(t, r.Dir, emb, "main", "feature")
	repo, err := gitindex.OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	live := rowHashes(t, repo, "main", "pkg1/f1.go")[0]
	dead := rowHashes(t, repo, "feature", "feat/x.go")[0]
	never := [16]byte{0xde, 0xad}
	g := func(model string, prompt int) store.GeneratedSummary {
		return store.GeneratedSummary{Summary: "What the code does, at length.", Model: model, Prompt: prompt, Generated: true}
	}
	storetest.PutSummaries(t, repo, map[[16]byte]store.GeneratedSummary{live: g("m1", 1), dead: g("m1", 1), never: g("m1", 1)})
	storetest.PutSummaries(t, repo, map[[16]byte]store.GeneratedSummary{live: g("m2", 2), dead: g("m2", 2)})
	err = storewrite.WriteSummaryIndex(repo.IndexDir, store.SummaryIndexHeader{Model: "m1", Prompt: 1}, []store.SummaryEntry{
		{Hash: live, Summary: g("m1", 1)}, {Hash: dead, Summary: g("m1", 1)}, {Hash: never, Summary: g("m1", 1)}})
	if err != nil {
		t.Fatal(err)
	}
	r.Git("branch", "-q", "-D", "feature")

	ctx := context.Background()
	sum, err := GC(ctx, indexer.NewIndexer(repo, indexer.Options{Embedder: emb}), 0, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if sum.DeadBlobs != 1 || sum.Summaries != 2 || sum.SummaryIndexEntries != 1 {
		t.Errorf("gc: %d dead blobs, %d summaries, %d summary index entries deleted; want 1, 2, 1", sum.DeadBlobs, sum.Summaries, sum.SummaryIndexEntries)
	}
	for _, m := range []struct {
		model  string
		prompt int
	}{{"m1", 1}, {"m2", 2}} {
		got := storetest.StoredSummaries(t, repo, m.model, m.prompt)
		if _, ok := got[dead]; ok || got[live].Summary == "" {
			t.Errorf("%s p%d after gc: dead one kept %v, live one kept %v", m.model, m.prompt, ok, got[live].Summary != "")
		}
	}
	x, err := store.OpenSummaryIndex(repo.IndexDir)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := storetest.StoredSummaries(t, repo, "m1", 1)[never]; !ok {
		t.Error("gc dropped the summary of a text no segment holds")
	}
	_, kept := x.ByHash[live]
	_, gone := x.ByHash[dead]
	if x.Len() != 2 || !kept || gone || x.Header.Model != "m1" {
		t.Errorf("summary index after gc: %d entries, live one kept %v, dead one kept %v, header %+v", x.Len(), kept, gone, x.Header)
	}

	sum, err = GC(ctx, indexer.NewIndexer(repo, indexer.Options{Embedder: emb}), 0, Options{})
	if err != nil || sum.Summaries != 0 || sum.SummaryIndexEntries != 0 {
		t.Errorf("second gc: %+v %v", sum, err)
	}
}
