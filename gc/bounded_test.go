package gc

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/exact"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/grep"
	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/internal/testkit/storetest"
	"github.com/bcindex/bcindex/search"
	"github.com/bcindex/bcindex/segment"
	"github.com/bcindex/bcindex/store"
	"github.com/bcindex/bcindex/store/storewrite"
)

// TestGCBoundsItsMerges indexes a history of many commits in several runs
// and deletes a branch, leaving many rows unreachable, then runs gc with a
// merge bound well below the live rows: gc writes several segments, none
// above the bound (a segment it keeps may be larger), holding every blob
// the refs reach once and nothing else; searches and greps of the refs
// answer as before; the store checks clean; a gc of a copy of the store
// writes the same bytes; and a second gc rewrites nothing.
func TestGCBoundsItsMerges(t *testing.T) {
	r, repo, emb, live, limit := boundedHistory(t)
	ctx := context.Background()
	m, err := store.ReadManifest(repo.IndexDir)
	if err != nil {
		t.Fatal(err)
	}
	before := answers(t, repo, emb)
	twin := t.TempDir()
	r.Git("clone", "-q", "--mirror", r.Dir, filepath.Join(twin, ".git"))
	copyDir(t, repo.IndexDir, filepath.Join(twin, ".git", "bcindex"))

	ix := indexer.NewIndexer(repo, indexer.Options{Embedder: emb, MergeRows: limit})
	sum, err := GC(ctx, ix, 0, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if sum.DeadBlobs == 0 || sum.LiveBlobs != len(live) || sum.SegmentsAfter < 3 {
		t.Errorf("gc summary %+v", sum)
	}
	old := m.Segments
	m, err = store.ReadManifest(repo.IndexDir)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[plumbing.Hash]int{}
	written := 0
	for _, id := range m.Segments {
		tab := openTable(t, repo.IndexDir, id)
		if !slices.Contains(old, id) {
			written++
			if tab.Nrows > limit {
				t.Errorf("gc wrote segment %s of %d rows, over the bound %d", id, tab.Nrows, limit)
			}
		}
		for b := 0; b < tab.Nblobs; b++ {
			seen[tab.BlobSHA(b)]++
		}
		tab.Close()
	}
	if written < 2 {
		t.Errorf("gc wrote %d segments, want several of at most %d rows", written, limit)
	}
	for h := range live {
		if seen[h] != 1 {
			t.Errorf("live blob %s in %d segments", h, seen[h])
		}
	}
	for h := range seen {
		if !live[h] {
			t.Errorf("unreachable blob %s left in the segments", h)
		}
	}
	if after := answers(t, repo, emb); !reflect.DeepEqual(after, before) {
		t.Errorf("answers after gc:\n%v\nbefore:\n%v", after, before)
	}
	rep, err := storewrite.Check(ctx, repo.IndexDir, repo.CheckListing)
	if err != nil || len(rep.Damaged) > 0 {
		t.Fatalf("check after gc: %v %+v", err, rep)
	}
	trepo, err := gitindex.OpenRepo(twin)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := GC(ctx, indexer.NewIndexer(trepo, indexer.Options{Embedder: emb, MergeRows: limit}), 0, Options{}); err != nil {
		t.Fatal(err)
	}
	got, want := storetest.SegmentFiles(t, trepo.IndexDir), storetest.SegmentFiles(t, repo.IndexDir)
	if len(want) < 3*written {
		t.Fatalf("segment files: %v", slices.Sorted(maps.Keys(want)))
	}
	for name, b := range want {
		if !bytes.Equal(got[name], b) {
			t.Errorf("gc of a copy of the store wrote %s otherwise", name)
		}
	}
	if len(got) != len(want) {
		t.Errorf("gc of a copy wrote %d segment files, not %d", len(got), len(want))
	}

	if sum, err := GC(ctx, ix, 0, Options{}); err != nil || sum.DeadBlobs != 0 || sum.SegmentsAfter != sum.SegmentsBefore {
		t.Errorf("second gc: %+v %v", sum, err)
	}
	if again, err := store.ReadManifest(repo.IndexDir); err != nil || !slices.Equal(again.Segments, m.Segments) || again.Next != m.Next {
		t.Errorf("second gc rewrote segments: %+v, was %+v (%v)", again, m, err)
	}
}

// copyDir copies a directory tree (the store of a repository).
func copyDir(t *testing.T, from, to string) {
	t.Helper()
	if out, err := exec.Command("cp", "-a", from, to).CombinedOutput(); err != nil {
		t.Fatalf("cp -a %s %s: %v\n%s", from, to, err, out)
	}
}

// boundedHistory indexes a history of many commits in several runs,
// indexes a branch and deletes it, and returns the repository, the blobs
// main and v1 hold, and a merge bound of a third of their rows.
func boundedHistory(t *testing.T) (*gittest.Repo, *gitindex.Repo, embed.Embedder, map[plumbing.Hash]bool, int) {
	t.Helper()
	r := gittest.New(t)
	r.Commit("init", manyFiles(60))
	var commits []string
	for i := range 24 {
		files := map[string]string{}
		for j := range 6 {
			f := (i*7 + j*11) % 60
			files[fmt.Sprintf("pkg%d/f%d.go", f%10, f)] = fmt.Sprintf(
				"package pkg%d\n\n// F%d retries thing %d with backoff, version %d.\nfunc F%d() int { return %d }\n\n// G%d_%d waits.\nfunc G%d_%d() {}\n",
				f%10, f, f, i, f, i, f, i, f, i)
		}
		commits = append(commits, r.Commit(fmt.Sprintf("change %d", i), files))
		if i == 8 {
			r.Git("tag", "v1")
		}
	}
	r.Git("checkout", "-q", "-b", "side", commits[15])
	r.Commit("side", map[string]string{"side/s.go": "package side\n\n// Sidetrack retries nothing.\nfunc Sidetrack() {}\n"})
	r.Git("checkout", "-q", "main")
	emb := embed.Default()
	for i := 0; i < len(commits); i += 6 {
		indexRevs(t, r.Dir, emb, commits[i:i+6]...)
	}
	indexRevs(t, r.Dir, emb, "side")
	r.Git("branch", "-q", "-D", "side")

	repo, err := gitindex.OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	m, err := store.ReadManifest(repo.IndexDir)
	if err != nil {
		t.Fatal(err)
	}
	live := liveBlobs(t, repo, "main", "v1")
	liveRows, allRows := 0, 0
	for _, id := range m.Segments {
		tab := openTable(t, repo.IndexDir, id)
		allRows += tab.Nrows
		for b := 0; b < tab.Nblobs; b++ {
			if live[tab.BlobSHA(b)] {
				_, n := tab.BlobRange(b)
				liveRows += n
			}
		}
		tab.Close()
	}
	limit := liveRows / 3
	if len(m.Segments) < 2 || 3*(allRows-liveRows) < allRows || limit < 20 {
		t.Fatalf("fixture: %d segments, %d rows, %d live", len(m.Segments), allRows, liveRows)
	}
	return r, repo, emb, live, limit
}

// liveBlobs lists the blobs of the revisions' trees.
func liveBlobs(t *testing.T, repo *gitindex.Repo, revs ...string) map[plumbing.Hash]bool {
	t.Helper()
	out := map[plumbing.Hash]bool{}
	for _, rev := range revs {
		c, err := repo.Resolve(rev)
		if err != nil {
			t.Fatal(err)
		}
		l, err := repo.Listing(c.Tree)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range l.Entries {
			out[e.Blob] = true
		}
	}
	return out
}

func openTable(t *testing.T, dir, id string) *segment.Table {
	t.Helper()
	tab, err := segment.OpenTable(segment.File(dir, id, segment.ChunksFile))
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// answers are the hits of searches and the lines of greps of main and v1,
// read from the index as `git bcindex search` and `grep` read it.
func answers(t *testing.T, repo *gitindex.Repo, emb embed.Embedder) []string {
	t.Helper()
	ctx := context.Background()
	var out []string
	for _, rev := range []string{"main", "v1"} {
		for _, q := range []string{"retries thing with backoff", "F17", "waits"} {
			for _, mode := range []string{search.ModeHybrid, search.ModeText, search.ModeSymbol} {
				res, err := search.SearchIndexed(ctx, repo, search.Options{Query: q, Rev: rev, Mode: mode, K: 20, Embedder: emb})
				if err != nil {
					t.Fatalf("search %q at %s: %v", q, rev, err)
				}
				for _, h := range res.Hits {
					out = append(out, fmt.Sprintf("%s %s %s: %s %s:%d-%d %.6f", rev, mode, q, h.Name, h.Path, h.StartLine, h.EndLine, h.Score))
				}
			}
		}
		m, err := exact.Compile([]string{"retries"}, exact.Options{})
		if err != nil {
			t.Fatal(err)
		}
		opts := grep.Options{Matcher: m, Rev: rev}
		want, err := grep.Plan(repo, opts)
		if err != nil {
			t.Fatal(err)
		}
		v, err := store.Open(ctx, repo, want, emb.ID())
		if err != nil {
			t.Fatal(err)
		}
		_, err = grep.Grep(ctx, v, opts, func(f *grep.File) error {
			for _, l := range f.Lines {
				out = append(out, fmt.Sprintf("%s grep: %s:%d:%s", rev, f.Path, l.Number, f.Content[l.Start:l.End]))
			}
			return nil
		})
		v.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(out) < 20 {
		t.Fatalf("too few answers to compare: %v", out)
	}
	return out
}
