package enhance

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/internal/testkit/chattest"
	"github.com/bcindex/bcindex/search"
	"github.com/bcindex/bcindex/store"
)

// A run leaves the summary index search ranks with; a rerun with nothing
// to summarise leaves it as it is, and one after it was damaged writes it
// anew.
func TestEnhanceIndexesSummariesForSearch(t *testing.T) {
	repo, _ := fixture(t)
	items, err := Collect(context.Background(), repo, []string{"main"}, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	// helper's summary says what its code never does.
	m := &model{say: map[string]string{"helper": "Negotiates the mailbox heartbeat with the remote peer."}}
	s := chattest.NewFunc(t, func(_ int, req chattest.Request) chattest.Step { return m.answer(req) })
	st := Store{IndexDir: repo.IndexDir}
	emb := embed.Default()
	stats, err := Run(context.Background(), newClient(t, s), st, items, Options{Embedder: emb})
	if err != nil {
		t.Fatal(err)
	}
	x, err := store.OpenSummaryIndex(repo.IndexDir)
	if err != nil {
		t.Fatal(err)
	}
	if stats.Searched != len(items) || x.Len() != len(items) || x.Header.Dim != emb.Dim() || x.Header.Embed != emb.ID() || x.Header.Model != "scripted" {
		t.Fatalf("stats %+v; index header %+v with %d entries", stats, x.Header, x.Len())
	}

	// As `git bcindex search` does: the revision indexed first.
	if _, err := indexer.NewIndexer(repo, indexer.Options{Embedder: emb}).Index(context.Background(), []string{"HEAD"}, 0); err != nil {
		t.Fatal(err)
	}
	q := search.Options{Query: "negotiate mailbox heartbeat", Mode: search.ModeText, Embedder: emb}
	res, err := search.SearchIndexed(context.Background(), repo, q)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) == 0 || res.Hits[0].Name != "helper" || res.Hits[0].GeneratedSummary == nil || res.Hits[0].GeneratedSummary.Model != "scripted" {
		t.Fatalf("hits %+v, want helper with its summary first", res.Hits)
	}
	q.NoSummaries = true
	if res, err := search.SearchIndexed(context.Background(), repo, q); err != nil || len(res.Hits) > 0 && res.Hits[0].Name == "helper" {
		t.Errorf("without summaries: %v, %+v", err, res)
	}

	p := filepath.Join(repo.IndexDir, store.SummaryIndexFile)
	before, _ := os.ReadFile(p)
	fi, _ := os.Stat(p)
	n := len(s.Requests())
	stats, err = Run(context.Background(), newClient(t, s), st, items, Options{Embedder: emb})
	if err != nil || stats.Searched != len(items) || len(s.Requests()) != n {
		t.Fatalf("rerun: %v, %+v, %d requests", err, stats, len(s.Requests())-n)
	}
	if fi2, _ := os.Stat(p); !fi2.ModTime().Equal(fi.ModTime()) {
		t.Errorf("a rerun with nothing new rewrote the summary index")
	}

	bad := append([]byte(nil), before...)
	bad[len(bad)/3] ^= 4
	os.WriteFile(p, bad, 0o644)
	if _, err := Run(context.Background(), newClient(t, s), st, items, Options{Embedder: emb}); err != nil {
		t.Fatal(err)
	}
	after, err := os.ReadFile(p)
	if err != nil || !bytes.Equal(after, before) {
		t.Errorf("the damaged summary index was not written anew as it was (%v)", err)
	}
}
