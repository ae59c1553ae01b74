package search

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/bits-and-blooms/bitset"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/store"
)

// TestViewOfSeveralListings: the view of several revisions, which skips
// the entries each listing shares with the one before it, shows exactly
// the union of the revisions' own views: the same rows, each blob at every
// path it has in any of them. The revisions change a file, change it back
// (a pair the previous listing lacks but an earlier one has), move one,
// add one and delete one; and every located entry is where the snapshot
// says its blob is.
func TestViewOfSeveralListings(t *testing.T) {
	r := gittest.New(t)
	fn := func(name string, n int) string {
		return fmt.Sprintf("// %s returns %d.\nfunc %s() int {\n\treturn %d\n}\n", name, n, name, n)
	}
	src := func(fns ...string) string { return "package p\n\n" + fns[0] + "\n" + fns[1] }
	a1, a2 := src(fn("Alpha", 1), fn("Other", 1)), src(fn("Alpha", 2), fn("Other", 1))
	b, c, e := src(fn("Beta", 1), fn("Gamma", 1)), src(fn("Gamma", 2), fn("Delta", 1)), src(fn("Eps", 1), fn("Zeta", 1))
	revs := []string{
		r.Commit("one", map[string]string{"a.go": a1, "b.go": b, "c.go": c}),
		r.Commit("two", map[string]string{"a.go": a2}),
		r.Commit("three", map[string]string{"a.go": a1, "e.go": e}),
	}
	r.Remove("c.go")
	revs = append(revs, r.Commit("four", map[string]string{"d/c.go": c}))
	r.Remove("b.go")
	revs = append(revs, r.Commit("five", map[string]string{"a.go": a2}))
	repo := openRepo(t, r.Dir)
	for i := range revs {
		run(t, repo, Options{Query: "Alpha", Rev: revs[i], K: 5}) // indexes each revision
	}
	opts := Options{}
	rd, commits := openRevs(t, repo, revs)
	defer rd.Close()
	for i, l := range rd.Listings {
		// Every entry of the first listing, then those the one before
		// lacks.
		var want []gitindex.Entry
		held := map[gitindex.Entry]bool{}
		if i > 0 {
			for _, e := range rd.Listings[i-1].Entries {
				held[e] = true
			}
		}
		for _, e := range l.Entries {
			if !held[e] {
				want = append(want, e)
			}
		}
		if !slices.Equal(rd.Fresh[i], want) {
			t.Errorf("revision %d: fresh entries %v, want %v", i, rd.Fresh[i], want)
		}
		if len(rd.Located[i]) != len(rd.Fresh[i]) {
			t.Fatalf("revision %d: %d located entries for %d fresh", i, len(rd.Located[i]), len(rd.Fresh[i]))
		}
		for k, e := range rd.Fresh[i] {
			want, ok := rd.Snap.FindBlob(e.Blob)
			if !ok || e.Skip != gitindex.SkipNone {
				want = store.BlobLoc{Seg: -1}
			}
			if got := rd.Located[i][k]; got != want {
				t.Errorf("revision %d, %s: located at %+v, want %+v", i, e.Path, got, want)
			}
		}
	}
	opts.compiled()
	all := newView(repo, commits[0], rd.Snap, rd.Listings, rd.Fresh, rd.Located, &opts)
	wantPaths := map[[2]int][]string{}
	union := make([]*bitset.BitSet, len(rd.Snap.Segments))
	for s := range union {
		union[s] = bitset.New(0)
	}
	for i := range rd.Listings {
		one := newView(repo, commits[i], rd.Snap, rd.Listings[i:i+1], nil, nil, &opts)
		for s := range rd.Snap.Segments {
			union[s].InPlaceUnion(one.allow[s])
			for k, b := range visibleByFirst(t, one) {
				if k[0] != s {
					continue
				}
				for _, p := range b.paths {
					if !slices.Contains(wantPaths[k], p) {
						wantPaths[k] = append(wantPaths[k], p)
					}
				}
			}
		}
	}
	for s := range rd.Snap.Segments {
		if all.allow[s].Count() != union[s].Count() || !all.allow[s].IsSuperSet(union[s]) {
			t.Errorf("segment %d: rows %v visible in the view of all, %v in the revisions'", s, all.allow[s], union[s])
		}
	}
	got := 0
	for k, b := range visibleByFirst(t, all) {
		got++
		want := wantPaths[k]
		gotPaths := slices.Clone(b.paths)
		slices.Sort(gotPaths)
		slices.Sort(want)
		if !slices.Equal(gotPaths, want) {
			t.Errorf("blob %s: paths %v, want %v", b.sha, gotPaths, want)
		}
	}
	if got != len(wantPaths) || got < 5 {
		t.Errorf("view of all shows %d blobs, the revisions %d (want at least 5)", got, len(wantPaths))
	}
	if len(all.added) != got {
		t.Errorf("view lists %d blobs added, holds %d", len(all.added), got)
	}
}

// visibleByFirst maps the view's visible blobs by segment and first row,
// checking that blobAt finds each at its rows.
func visibleByFirst(t *testing.T, v *view) map[[2]int]visibleBlob {
	out := map[[2]int]visibleBlob{}
	for i, b := range v.added {
		vb, ok := v.blobAt(b.seg, b.first+b.n-1)
		if !ok || vb.sha != v.visible[i].sha {
			t.Fatalf("blobAt does not find blob %s at its last row %d", v.visible[i].sha, b.first+b.n-1)
		}
		out[[2]int{b.seg, b.first}] = v.visible[i]
	}
	return out
}

// openRevs opens the store's view of revs, which the caller closes, and
// returns it with the revisions' commits.
func openRevs(t *testing.T, repo *gitindex.Repo, revs []string) (*store.View, []gitindex.Commit) {
	t.Helper()
	commits, err := resolveAll(repo, revs)
	if err != nil {
		t.Fatal(err)
	}
	rd, err := store.Open(context.Background(), repo, store.Want{Commits: commits}, "")
	if err != nil {
		t.Fatal(err)
	}
	return rd, commits
}
