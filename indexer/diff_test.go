package indexer

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
)

func treeOf(t *testing.T, repo *gitindex.Repo, rev string) plumbing.Hash {
	t.Helper()
	c, err := repo.Resolve(rev)
	if err != nil {
		t.Fatal(err)
	}
	return c.Tree
}

// TestListingFromMatchesWalk checks that a listing derived from a diff is
// exactly the listing a full walk produces, across the kinds of change.
func TestListingFromMatchesWalk(t *testing.T) {
	r := gittest.New(t)
	files := manyFiles(50)
	files[".gitattributes"] = "gen/** linguist-generated\n"
	files["gen/a.go"] = "package gen\n"
	files["dir/x.go"] = "package dir\n"
	r.Commit("init", files)
	steps := []struct {
		name string
		do   func()
	}{
		{"modify one file", func() { r.Commit("m", map[string]string{"pkg0/f0.go": "package pkg0\n// changed\n"}) }},
		{"add files under attributes and vendor", func() {
			r.Commit("a", map[string]string{"gen/b.go": "package gen\n", "vendor/v.go": "package v\n", "new/n.go": "package n\n"})
		}},
		{"rename unchanged", func() { r.Git("mv", "pkg1/f1.go", "pkg1/renamed.go"); r.Commit("r", nil) }},
		{"delete directory", func() { r.Git("rm", "-rq", "pkg2"); r.Commit("d", nil) }},
		{"directory becomes file", func() { r.Git("rm", "-rq", "dir"); r.Commit("df", map[string]string{"dir": "now a file\n"}) }},
		{"file becomes directory", func() {
			r.Git("rm", "-q", "dir")
			r.Commit("fd", map[string]string{"dir/a/b/deep.go": "package b\n", "dir/top.go": "package dir\n"})
		}},
		{"mode change only", func() { r.Git("update-index", "--chmod=+x", "pkg4/f4.go"); r.Commit("x", nil) }},
		{"new nested directories and a deleted sibling", func() {
			r.Git("rm", "-q", "pkg5/f5.go")
			r.Commit("n", map[string]string{"n1/n2/n3/x.go": "package n3\n", "n1/y.go": "package n1\n"})
		}},
		{"symlink", func() {
			if err := os.Symlink("pkg3/f3.go", filepath.Join(r.Dir, "link.go")); err != nil {
				t.Fatal(err)
			}
			r.Commit("s", nil)
		}},
		{"attributes change walks", func() { r.Commit("ga", map[string]string{".gitattributes": "new/** linguist-vendored\n"}) }},
	}
	repo, err := gitindex.OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := repo.Listing(treeOf(t, repo, "HEAD")); err != nil {
		t.Fatal(err)
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			s.do()
			repo, err := gitindex.OpenRepo(r.Dir)
			if err != nil {
				t.Fatal(err)
			}
			prev, head := treeOf(t, repo, "HEAD~1"), treeOf(t, repo, "HEAD")
			got, d, err := repo.ListingFrom(ctx, head, plumbing.ZeroHash, prev)
			if err != nil {
				t.Fatal(err)
			}
			want, err := repo.WalkTree(head)
			if err != nil {
				t.Fatal(err)
			}
			if got.Tree != want.Tree || !reflect.DeepEqual(got.Entries, want.Entries) {
				t.Fatalf("derived listing differs from walk (diff %+v)\n got %v\nwant %v", d, got.Entries, want.Entries)
			}
			if wantWalk := s.name == "attributes change walks"; d.Walked != wantWalk {
				t.Errorf("walked = %v, want %v (%+v)", d.Walked, wantWalk, d)
			}
			cached, err := repo.CachedListing(head)
			if err != nil || !reflect.DeepEqual(cached.Entries, want.Entries) {
				t.Fatalf("listing not cached: %v", err)
			}
		})
	}
}

// TestDiffIndexCounts: after a commit, only the changed blobs go through
// chunking: a pure rename processes nothing, a 1-file change one blob.
func TestDiffIndexCounts(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", manyFiles(200))
	emb := &countingEmbedder{Embedder: embed.Default()}
	if sum := indexRevs(t, r.Dir, emb, "HEAD"); sum.BlobsNew != 200 {
		t.Fatalf("first index: %d new blobs", sum.BlobsNew)
	}
	emb.reset()
	check := func(name string, wantNew, wantAdded, wantDeleted, wantModified int) {
		t.Helper()
		repo, err := gitindex.OpenRepo(r.Dir)
		if err != nil {
			t.Fatal(err)
		}
		_, d, err := repo.ListingFrom(context.Background(), treeOf(t, repo, "HEAD"), treeOf(t, repo, "HEAD~1"))
		if err != nil {
			t.Fatal(err)
		}
		if d.Walked || d.Added != wantAdded || d.Deleted != wantDeleted || d.Modified != wantModified {
			t.Errorf("%s: diff %+v, want +%d -%d ~%d", name, d, wantAdded, wantDeleted, wantModified)
		}
		sum := indexRevs(t, r.Dir, emb, "HEAD")
		if sum.BlobsNew != wantNew {
			t.Errorf("%s: %d blobs processed, want %d", name, sum.BlobsNew, wantNew)
		}
		if wantNew == 0 && emb.reset() != 0 {
			t.Errorf("%s: embedded texts for a change with no new content", name)
		}
	}
	r.Git("mv", "pkg1/f1.go", "pkg1/moved.go")
	r.Commit("rename", nil)
	check("rename", 0, 1, 1, 0)
	r.Commit("one file", map[string]string{"pkg2/f2.go": "package pkg2\n\n// F2 now retries.\nfunc F2() int { return retry() }\n"})
	check("1-file commit", 1, 0, 0, 1)
}

// TestDamagedListingIsRebuilt: a cached listing whose bytes were damaged
// (listings are written without fsync) fails its checksum, and the listing
// is walked again and re-cached.
func TestDamagedListingIsRebuilt(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", manyFiles(30))
	repo, err := gitindex.OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	head := treeOf(t, repo, "HEAD")
	want, err := repo.Listing(head)
	if err != nil {
		t.Fatal(err)
	}
	p := gitindex.ListingPath(repo.IndexDir, head)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, at := range []int{len(b) / 2, len(b) - 1, len(gitindex.ListingMagic) + 1} {
		damaged := append([]byte(nil), b...)
		damaged[at] ^= 0x40
		if err := os.WriteFile(p, damaged, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := repo.CachedListing(head); err == nil {
			t.Fatalf("damaged byte %d: cached listing read without error", at)
		}
		got, _, err := repo.ListingFrom(context.Background(), head)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("damaged byte %d: rebuilt listing differs", at)
		}
		if cached, err := repo.CachedListing(head); err != nil || !reflect.DeepEqual(cached, want) {
			t.Fatalf("damaged byte %d: listing not cached again: %v", at, err)
		}
	}
	if err := os.WriteFile(p, b[:len(b)-3], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := repo.CachedListing(head); err == nil {
		t.Fatal("truncated listing read without error")
	}
}

// TestDeltaListings checks how derived listings are cached: as changes
// against a listing stored in full while they are few, never as a chain of
// deltas, in full past maxDeltaShare; gc keeps the base of a kept delta;
// a damaged base makes the delta unreadable and the listing is derived
// again.
func TestDeltaListings(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", manyFiles(200))
	repo, err := gitindex.OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	base := treeOf(t, repo, "HEAD")
	if _, err := repo.Listing(base); err != nil {
		t.Fatal(err)
	}
	// derive commits a change, derives HEAD's listing from HEAD~1's and
	// checks it against a walk; it returns HEAD's tree and its delta base.
	derive := func(files map[string]string) (plumbing.Hash, plumbing.Hash, bool) {
		t.Helper()
		r.Commit("change", files)
		repo, err := gitindex.OpenRepo(r.Dir)
		if err != nil {
			t.Fatal(err)
		}
		head := treeOf(t, repo, "HEAD")
		if _, _, err := repo.ListingFrom(ctx, head, treeOf(t, repo, "HEAD~1")); err != nil {
			t.Fatal(err)
		}
		want, err := repo.WalkTree(head)
		if err != nil {
			t.Fatal(err)
		}
		got, err := repo.CachedListing(head)
		if err != nil || !reflect.DeepEqual(got.Entries, want.Entries) {
			t.Fatalf("cached listing of %s differs from the walk (%v)", head, err)
		}
		b, isDelta := gitindex.ListingBase(repo.IndexDir, head)
		return head, b, isDelta
	}

	one, b1, ok := derive(map[string]string{"pkg0/f0.go": "package pkg0\n// one\n"})
	if !ok || b1 != base {
		t.Fatalf("1-file change: delta %v against %s, want a delta against %s", ok, b1, base)
	}
	two, b2, ok := derive(map[string]string{"pkg1/f1.go": "package pkg1\n// two\n", "extra/new.go": "package extra\n"})
	if !ok || b2 != base {
		t.Fatalf("second change: delta %v against %s, want a delta against the full %s (no chains)", ok, b2, base)
	}
	many := map[string]string{}
	for i := range 40 {
		many[fmt.Sprintf("pkg%d/f%d.go", i%10, i)] = fmt.Sprintf("package pkg%d\n// changed %d\n", i%10, i)
	}
	if _, _, ok := derive(many); ok {
		t.Fatal("40 of 200 files changed: stored as a delta, want in full")
	}

	// gc: keeping the delta keeps its base.
	gitindex.SweepListings(repo.IndexDir, map[plumbing.Hash]bool{two: true})
	if _, err := repo.CachedListing(two); err != nil {
		t.Fatalf("kept delta unreadable after the sweep: %v", err)
	}
	if _, err := repo.CachedListing(one); err == nil {
		t.Fatal("unkept delta survived the sweep")
	}

	// A damaged base: the delta fails, and deriving it again works.
	p := gitindex.ListingPath(repo.IndexDir, base)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/2] ^= 0x40
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := repo.CachedListing(two); err == nil {
		t.Fatal("delta over a damaged base read without error")
	}
	got, _, err := repo.ListingFrom(ctx, two, base)
	if err != nil {
		t.Fatal(err)
	}
	want, err := repo.WalkTree(two)
	if err != nil || !reflect.DeepEqual(got.Entries, want.Entries) {
		t.Fatalf("listing derived again differs from the walk (%v)", err)
	}
}
