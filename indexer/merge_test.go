package indexer

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/lexical"
	"github.com/bcindex/bcindex/store"
)

// TestSegmentsStayBounded indexes one commit at a time (as hooks do) and
// checks that segments are merged, nothing is lost, and postings and
// vectors survive the merge.
func TestSegmentsStayBounded(t *testing.T) {
	r := gittest.New(t)
	emb := embed.Default()
	for i := 0; i < 3*maxSegments; i++ {
		r.Commit(fmt.Sprintf("c%d", i), map[string]string{fmt.Sprintf("f%d.go", i): fmt.Sprintf("package p\n\n// Func%d computes widget number %d.\nfunc Func%d() int { return %d }\n", i, i, i, i)})
		indexRevs(t, r.Dir, emb, "HEAD")
	}
	repo, _ := gitindex.OpenRepo(r.Dir)
	snap, err := store.OpenSnapshot(repo.IndexDir, emb.ID())
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Close()
	if n := len(snap.Segments); n > maxSegments {
		t.Fatalf("%d segments after %d runs, want at most %d", n, 3*maxSegments, maxSegments)
	}
	st, err := StatusOf(repo, "HEAD", emb.ID())
	if err != nil {
		t.Fatal(err)
	}
	if st.Pending != 0 || st.Blobs != 3*maxSegments || st.Vectors == 0 {
		t.Fatalf("status after merges: %+v", st)
	}
	l, err := repo.Listing(mustResolve(t, repo, "HEAD").Tree)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range l.Entries {
		loc, ok := snap.FindBlob(e.Blob)
		if !ok {
			t.Fatalf("blob of %s lost in merge", e.Path)
		}
		seg := snap.Segments[loc.Seg]
		found := false
		for row := loc.First; row < loc.First+loc.N; row++ {
			name := seg.Name(row)
			if name == "" {
				continue
			}
			it := seg.Lex.Iter(lexical.Tokens(name)[0])
			for it.Next() {
				if it.Row() == row {
					found = true
				}
			}
			if q, s := seg.Vec.Row(row); q == nil || s == 0 {
				t.Errorf("%s: row %d (%s) lost its vector", e.Path, row, name)
			}
		}
		if !found {
			t.Errorf("%s: no posting of its function name points at its row", e.Path)
		}
	}
}

func mustResolve(t *testing.T, repo *gitindex.Repo, rev string) gitindex.Commit {
	t.Helper()
	c, err := repo.Resolve(rev)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestMergeKeepsRowsWithoutWords: a segment whose last rows hold no word
// (a file of punctuation) has a lexical index shorter than its table; the
// segments still merge, and a search of every file finds its rows.
func TestMergeKeepsRowsWithoutWords(t *testing.T) {
	r := gittest.New(t)
	emb := embed.Default()
	for i := 0; i < 2*maxSegments; i++ {
		r.Commit(fmt.Sprintf("c%d", i), map[string]string{
			fmt.Sprintf("f%d.go", i):  fmt.Sprintf("package p\n\n// Func%d computes widget number %d.\nfunc Func%d() int { return %d }\n", i, i, i, i),
			fmt.Sprintf("z%d.txt", i): fmt.Sprintf("%s\n", strings.Repeat("-+", i+1)),
		})
		repo, err := gitindex.OpenRepo(r.Dir)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := NewIndexer(repo, Options{Embedder: emb, Workers: 1}).Index(context.Background(), []string{"HEAD"}, 0); err != nil {
			t.Fatalf("index commit %d: %v", i, err)
		}
		repo.Close()
	}
	repo, _ := gitindex.OpenRepo(r.Dir)
	defer repo.Close()
	snap, err := store.OpenSnapshot(repo.IndexDir, emb.ID())
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Close()
	if n := len(snap.Segments); n > maxSegments {
		t.Fatalf("%d segments after %d runs, want at most %d", n, 2*maxSegments, maxSegments)
	}
	short := 0
	for _, seg := range snap.Segments {
		if seg.Lex.Rows() < seg.Rows() {
			short++
		}
	}
	if short == 0 {
		t.Fatal("no segment ends with rows without words: the test lost its case")
	}
	l, err := repo.Listing(mustResolve(t, repo, "HEAD").Tree)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range l.Entries {
		if _, ok := snap.FindBlob(e.Blob); !ok {
			t.Errorf("blob of %s lost in merge", e.Path)
		}
	}
}
