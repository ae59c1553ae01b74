package share

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/testkit/storetest"
	"github.com/bcindex/bcindex/store"
)

// Summaries travel through a bare remote: checksummed, still marked
// generated and naming their model; a second push sends nothing new, a
// second fetch stores nothing twice, and tampered or foreign entries are
// refused.
func TestSummariesThroughBareRemote(t *testing.T) {
	ctx := context.Background()
	r, bare := pushedRepo(t, map[string]string{"calc/calc.go": goFile})
	indexRevs(t, r.Dir, embed.Default(), "HEAD")
	repo, err := gitindex.OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if sum, err := PushSummaries(ctx, repo, "origin", "m:7b", 1, 0); err != nil || sum != nil {
		t.Fatalf("push with no summaries: %+v %v", sum, err)
	}
	want := map[[16]byte]store.GeneratedSummary{
		{1}: {Summary: "Adds two numbers and returns the sum.", Keywords: []string{"add", "sum"}, Purpose: "add", Model: "m:7b", Prompt: 1, Generated: true},
		{2}: {Summary: "Multiplies two numbers together.", Model: "m:7b", Prompt: 1, Generated: true},
	}
	storetest.PutSummaries(t, repo, want)
	// Another model's summary stays home.
	storetest.PutSummaries(t, repo, map[[16]byte]store.GeneratedSummary{{3}: {Summary: "Someone else's summary.", Model: "other", Prompt: 1, Generated: true}})
	sum, err := PushSummaries(ctx, repo, "origin", "m:7b", 1, 0)
	if err != nil || sum.Written != 2 || sum.Entries != 2 {
		t.Fatalf("push: %+v %v", sum, err)
	}
	again, err := PushSummaries(ctx, repo, "origin", "m:7b", 1, 0)
	if err != nil || again.Written != 0 || again.Commit != sum.Commit {
		t.Fatalf("second push: %+v %v", again, err)
	}

	clone := filepath.Join(t.TempDir(), "clone")
	gitRun(t, r.Dir, "clone", "-q", bare, clone)
	crepo, err := gitindex.OpenRepo(clone)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := FetchSummaries(ctx, crepo, "origin", "other", 1, 0); err != nil || got != nil {
		t.Fatalf("fetch of a model the remote does not share: %+v %v", got, err)
	}
	got, err := FetchSummaries(ctx, crepo, "origin", "m:7b", 1, 0)
	if err != nil || got.Imported != 2 || len(got.Rejected) != 0 {
		t.Fatalf("fetch: %+v %v", got, err)
	}
	have := storetest.StoredSummaries(t, crepo, "m:7b", 1)
	if len(have) != 2 || have[[16]byte{1}].Summary != want[[16]byte{1}].Summary || !have[[16]byte{2}].Generated || len(have[[16]byte{1}].Keywords) != 2 {
		t.Fatalf("stored in the clone: %+v", have)
	}
	if got, err = FetchSummaries(ctx, crepo, "origin", "m:7b", 1, 0); err != nil || got.Imported != 0 || got.Present != 2 {
		t.Fatalf("second fetch: %+v %v", got, err)
	}

	// Bad entries pushed to the remote by hand are refused, one reason each.
	ref := SummaryShareRef("m:7b", 1)
	entries := map[string]map[string]plumbing.Hash{}
	add := func(h [16]byte, raw []byte) {
		o, err := writeObject(repo, plumbing.BlobObject, raw)
		if err != nil {
			t.Fatal(err)
		}
		x := hex.EncodeToString(h[:])
		if entries[x[:2]] == nil {
			entries[x[:2]] = map[string]plumbing.Hash{}
		}
		entries[x[:2]][x[2:]] = o
	}
	rec := func(g store.GeneratedSummary) []byte { b, _ := json.Marshal(g); return b }
	flipped := encodeSummaryEntry(rec(store.GeneratedSummary{Summary: "A fine summary of code.", Model: "m:7b", Prompt: 1, Generated: true}))
	flipped[12] ^= 1
	add([16]byte{10}, flipped)
	add([16]byte{11}, encodeSummaryEntry(rec(store.GeneratedSummary{Summary: "A fine summary of code.", Model: "m:13b", Prompt: 1, Generated: true})))
	add([16]byte{12}, encodeSummaryEntry(rec(store.GeneratedSummary{Summary: "Written by the author.", Model: "m:7b", Prompt: 1})))
	add([16]byte{13}, encodeSummaryEntry(rec(store.GeneratedSummary{Summary: "Short", Model: "m:7b", Prompt: 1, Generated: true})))
	add([16]byte{14}, []byte("not an entry"))
	bad, err := writeShareCommit(repo, entries, nil, "bad\n")
	if err != nil {
		t.Fatal(err)
	}
	gitRun(t, r.Dir, "push", "-q", "-f", "origin", bad.String()+":"+string(ref))
	got, err = FetchSummaries(ctx, crepo, "origin", "m:7b", 1, 0)
	if err != nil || got.Imported != 0 || got.Rejected["checksum mismatch"] != 1 || got.Rejected["other model or prompt"] != 1 ||
		got.Rejected["not marked generated"] != 1 || got.Rejected["malformed"] != 2 {
		t.Fatalf("fetch of bad entries: %+v %v", got, err)
	}
	if n := len(storetest.StoredSummaries(t, crepo, "m:7b", 1)); n != 2 {
		t.Errorf("the clone holds %d summaries after refusing bad ones, want 2", n)
	}
}
