package similar

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gc"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/search"
	"github.com/bcindex/bcindex/store"
)

// TestSimilarRunsAgainWhenGCMovesItsVectors: gc rewrites Badger's value
// log while similar holds its segments open (three branches indexed then
// deleted left dead vectors in several log files). Similar reads the
// changed chunks' own vectors as well as scanning: its first read faults,
// and it opens the segments again, where the locators now point, and
// answers as before.
func TestSimilarRunsAgainWhenGCMovesItsVectors(t *testing.T) {
	emb := embed.Default()
	ctx := context.Background()
	r := gittest.New(t)
	copyGo := strings.ReplaceAll(strings.ReplaceAll(gittest.HeaderGo, "package wire", "package frame"), "ParseHeader", "ReadFrameHeader")
	files := map[string]string{"net/retry.go": gittest.RetryGo, "wire/header.go": gittest.HeaderGo, "frame/frame.go": copyGo}
	for i := 0; i < 30; i++ {
		files[fmt.Sprintf("pkg/f%d.go", i)] = fmt.Sprintf("package pkg\n\n// F%d returns %d.\nfunc F%d() int { return %d }\n", i, i, i, i)
	}
	r.Commit("init", files)
	r.Commit("fix bounds check", map[string]string{"wire/header.go": strings.Replace(gittest.HeaderGo, "if len(buf) < n {", "if len(buf) < 2+n {", 1)})
	repo := openRepo(t, r.Dir)
	ix := indexer.NewIndexer(repo, indexer.Options{Embedder: emb})
	for i := 0; i < 3; i++ {
		r.Git("checkout", "-q", "-b", fmt.Sprintf("b%d", i))
		r.Commit("branch", map[string]string{"pkg/extra.go": fmt.Sprintf("package pkg\n\n// Extra%d is on a branch.\nfunc Extra%d() {}\n", i, i)})
		if _, err := ix.Index(ctx, []string{"HEAD"}, 0); err != nil {
			t.Fatal(err)
		}
		r.Git("checkout", "-q", "main")
		r.Git("branch", "-q", "-D", fmt.Sprintf("b%d", i))
	}
	o := search.Options{Embedder: emb, K: 5}
	want, err := similarRepo(ctx, repo, "HEAD", o)
	if err != nil {
		t.Fatal(err)
	}
	w, err := Plan(repo, "HEAD", o)
	if err != nil {
		t.Fatal(err)
	}
	v, err := store.Open(ctx, repo, w, emb.ID())
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	first := v.Snap
	sum, err := gc.GC(ctx, ix, 0, gc.Options{})
	if err != nil {
		t.Fatalf("gc: %v", err)
	}
	if sum.LogFiles == 0 {
		t.Fatalf("gc rewrote no log file (%+v): nothing moved under the query", sum)
	}
	got, err := Similar(ctx, v, "HEAD", o)
	if err != nil {
		t.Fatalf("similar after gc moved the vectors: %v", err)
	}
	if v.Snap == first {
		t.Errorf("similar ran on the segments it first opened only (its first read faults)")
	}
	if len(want.Hits) == 0 || want.Hits[0].Name != "ReadFrameHeader" {
		t.Fatalf("similar before gc: %+v, want ReadFrameHeader first", want.Hits)
	}
	if len(got.Hits) != len(want.Hits) || got.Hits[0].Name != want.Hits[0].Name || got.Hits[0].Path != want.Hits[0].Path {
		t.Fatalf("after gc moved the vectors: %d hits (first %+v), want %d like before", len(got.Hits), got.Hits, len(want.Hits))
	}
}
