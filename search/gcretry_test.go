package search

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gc"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/store"
)

// repoWithLogToRewrite makes a repository whose index has dead vectors in
// several Badger log files (three branches indexed, then deleted), so that
// gc rewrites the log and moves the live vectors. Its last commit fixes
// one of two copies of gittest.HeaderGo, for similar.
func repoWithLogToRewrite(t *testing.T, emb embed.Embedder) *gitindex.Repo {
	t.Helper()
	r := gittest.New(t)
	copyGo := strings.ReplaceAll(strings.ReplaceAll(gittest.HeaderGo, "package wire", "package frame"), "ParseHeader", "ReadFrameHeader")
	files := map[string]string{"net/retry.go": gittest.RetryGo, "cfg/config.py": gittest.ConfigPy, "wire/header.go": gittest.HeaderGo, "frame/frame.go": copyGo}
	for i := 0; i < 30; i++ {
		files[fmt.Sprintf("pkg/f%d.go", i)] = fmt.Sprintf("package pkg\n\n// F%d returns %d.\nfunc F%d() int { return %d }\n", i, i, i, i)
	}
	r.Commit("init", files)
	r.Commit("fix bounds check", map[string]string{"wire/header.go": strings.Replace(gittest.HeaderGo, "if len(buf) < n {", "if len(buf) < 2+n {", 1)})
	repo := openRepo(t, r.Dir)
	run(t, repo, Options{Query: "retry", Embedder: emb})
	run(t, repo, Options{Query: "retry", Rev: "HEAD~1", Embedder: emb})
	for i := 0; i < 3; i++ {
		r.Git("checkout", "-q", "-b", fmt.Sprintf("b%d", i))
		r.Commit("branch", map[string]string{"pkg/extra.go": fmt.Sprintf("package pkg\n\n// Extra%d is on a branch.\nfunc Extra%d() {}\n", i, i)})
		run(t, repo, Options{Query: "extra", Embedder: emb})
		r.Git("checkout", "-q", "main")
		r.Git("branch", "-q", "-D", fmt.Sprintf("b%d", i))
	}
	return repo
}

// gcUnderView opens the index as want reads it, then runs gc, which
// rewrites the log holding the vectors the view mapped. The caller closes
// the view.
func gcUnderView(t *testing.T, repo *gitindex.Repo, emb embed.Embedder, want store.Want) (*store.View, *store.Snapshot, *gc.Summary) {
	t.Helper()
	v, err := store.Open(context.Background(), repo, want, emb.ID())
	if err != nil {
		t.Fatal(err)
	}
	sum, err := gc.GC(context.Background(), indexer.NewIndexer(repo, indexer.Options{Embedder: emb}), 0, gc.Options{})
	if err != nil {
		t.Fatalf("gc: %v", err)
	}
	return v, v.Snap, sum
}

// checkRanAgain: gc moved vectors under the query, whose first scan then
// faulted, so it opened the segments again and ran twice.
func checkRanAgain(t *testing.T, v *store.View, first *store.Snapshot, sum *gc.Summary) {
	t.Helper()
	if sum == nil || sum.LogFiles == 0 {
		t.Fatalf("gc rewrote no log file (%+v): nothing moved under the query", sum)
	}
	if v.Snap == first {
		t.Errorf("the query ran on the segments it first opened only (its first scan faults)")
	}
}

// TestSearchRunsAgainWhenGCMovesItsVectors: gc rewrites Badger's value log
// while a search holds its segments open. The search's mapped vectors lose
// their file, the scan faults (vector.ErrFault), and the search opens the
// segments again, where the locators now point, and answers as before.
func TestSearchRunsAgainWhenGCMovesItsVectors(t *testing.T) {
	emb := embed.Default()
	repo := repoWithLogToRewrite(t, emb)
	o := Options{Query: "parse the config file", Mode: ModeVector, Embedder: emb}
	want := runAsIs(t, repo, o)
	p, err := NewPlan(repo, o)
	if err != nil {
		t.Fatal(err)
	}
	v, first, sum := gcUnderView(t, repo, emb, p.Want)
	defer v.Close()
	got, err := NewSearcher(v, p).Search(context.Background(), nil, o)
	if err != nil {
		t.Fatalf("search after gc moved the vectors: %v", err)
	}
	checkRanAgain(t, v, first, sum)
	if len(got.Hits) == 0 || len(got.Hits) != len(want.Hits) || got.Hits[0].ChunkID != want.Hits[0].ChunkID {
		t.Fatalf("after gc moved the vectors: %d hits, want %d like before", len(got.Hits), len(want.Hits))
	}
}
