package search

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

// repoWithLogToRewrite makes a repository whose index has dead vectors in
// several Badger log files (three branches indexed, then deleted), so that
// gc rewrites the log and moves the live vectors. Its last commit fixes
// one of two copies of headerGo, for similar.
func repoWithLogToRewrite(t *testing.T, emb embed.Embedder) *gitindex.Repo {
	t.Helper()
	r := gittest.New(t)
	copyGo := strings.ReplaceAll(strings.ReplaceAll(headerGo, "package wire", "package frame"), "ParseHeader", "ReadFrameHeader")
	files := map[string]string{"net/retry.go": gittest.RetryGo, "cfg/config.py": gittest.ConfigPy, "wire/header.go": headerGo, "frame/frame.go": copyGo}
	for i := 0; i < 30; i++ {
		files[fmt.Sprintf("pkg/f%d.go", i)] = fmt.Sprintf("package pkg\n\n// F%d returns %d.\nfunc F%d() int { return %d }\n", i, i, i, i)
	}
	r.Commit("init", files)
	r.Commit("fix bounds check", map[string]string{"wire/header.go": strings.Replace(headerGo, "if len(buf) < n {", "if len(buf) < 2+n {", 1)})
	repo := openRepo(t, r.Dir)
	run(t, repo, Options{Query: "retry", Embedder: emb})
	if _, err := Similar(context.Background(), repo, "HEAD", Options{Embedder: emb}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		r.Git("checkout", "-q", "-b", fmt.Sprintf("b%d", i))
		r.Commit("branch", map[string]string{"pkg/extra.go": fmt.Sprintf("package pkg\n\n// Extra%d is on a branch.\nfunc Extra%d() {}\n", i, i)})
		run(t, repo, Options{Query: "extra", Embedder: emb})
		r.Git("checkout", "-q", "main")
		r.Git("branch", "-q", "-D", fmt.Sprintf("b%d", i))
	}
	return repo
}

// gcUnderFirstQuery sets o to run gc once the query's segments are open,
// before it reads them, the first time only. It returns how many times the
// query got its segments open, and what gc did.
func gcUnderFirstQuery(t *testing.T, repo *gitindex.Repo, emb embed.Embedder, o *Options) (*int, **indexer.GCSummary) {
	attempts := 0
	var sum *indexer.GCSummary
	o.afterReady = func() {
		attempts++
		if attempts == 1 {
			var err error
			if sum, err = indexer.NewIndexer(repo, indexer.Options{Embedder: emb}).GC(context.Background(), 0, indexer.GCOptions{}); err != nil {
				t.Errorf("gc: %v", err)
			}
		}
	}
	return &attempts, &sum
}

// checkRanAgain: gc moved vectors under the query, whose first scan then
// faulted, so it ran twice.
func checkRanAgain(t *testing.T, attempts int, sum *indexer.GCSummary) {
	t.Helper()
	if sum == nil || sum.LogFiles == 0 {
		t.Fatalf("gc rewrote no log file (%+v): nothing moved under the query", sum)
	}
	if attempts != 2 {
		t.Errorf("the query ran %d times, want twice (its first scan faults)", attempts)
	}
}

// TestSearchRunsAgainWhenGCMovesItsVectors: gc rewrites Badger's value log
// while a search holds its segments open. The search's mapped vectors lose
// their file, the scan faults (vector.ErrFault), and the search opens the
// segments again, where the locators now point, and answers as before.
func TestSearchRunsAgainWhenGCMovesItsVectors(t *testing.T) {
	emb := embed.Default()
	repo := repoWithLogToRewrite(t, emb)
	want := run(t, repo, Options{Query: "parse the config file", Mode: ModeVector, Embedder: emb, NoIndex: true})
	o := Options{Query: "parse the config file", Mode: ModeVector, Embedder: emb, NoIndex: true}
	attempts, sum := gcUnderFirstQuery(t, repo, emb, &o)
	got := run(t, repo, o)
	checkRanAgain(t, *attempts, *sum)
	if len(got.Hits) == 0 || len(got.Hits) != len(want.Hits) || got.Hits[0].ChunkID != want.Hits[0].ChunkID {
		t.Fatalf("after gc moved the vectors: %d hits, want %d like before", len(got.Hits), len(want.Hits))
	}
}

// TestSimilarRunsAgainWhenGCMovesItsVectors: the same for similar, which
// reads the changed chunks' own vectors as well as scanning.
func TestSimilarRunsAgainWhenGCMovesItsVectors(t *testing.T) {
	emb := embed.Default()
	repo := repoWithLogToRewrite(t, emb)
	ctx := context.Background()
	want, err := Similar(ctx, repo, "HEAD", Options{Embedder: emb, K: 5, NoIndex: true})
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Embedder: emb, K: 5, NoIndex: true}
	attempts, sum := gcUnderFirstQuery(t, repo, emb, &o)
	got, err := Similar(ctx, repo, "HEAD", o)
	if err != nil {
		t.Fatalf("similar after gc moved the vectors: %v", err)
	}
	checkRanAgain(t, *attempts, *sum)
	if len(want.Hits) == 0 || want.Hits[0].Name != "ReadFrameHeader" {
		t.Fatalf("similar before gc: %+v, want ReadFrameHeader first", want.Hits)
	}
	if len(got.Hits) != len(want.Hits) || got.Hits[0].Name != want.Hits[0].Name || got.Hits[0].Path != want.Hits[0].Path {
		t.Fatalf("after gc moved the vectors: %d hits (first %+v), want %d like before", len(got.Hits), got.Hits, len(want.Hits))
	}
}
