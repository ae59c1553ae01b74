package gitindex

import (
	"fmt"
	"slices"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

// TestFreshEntries: listings cached as deltas of one base, read back
// together, are compared through their deltas; the answer must be what a
// walk over every entry finds, for every ordered pair, including a path
// changed back to the base's entry, the same change in both, different
// changes at one path, added and removed paths and a new skip reason.
// Listings of different bases, or never cached, are walked.
func TestFreshEntries(t *testing.T) {
	h := func(s string) plumbing.Hash { return plumbing.ComputeHash(plumbing.BlobObject, []byte(s)) }
	var base []Entry
	for i := range 40 {
		p := fmt.Sprintf("d%d/f%02d.go", i%4, i)
		base = append(base, Entry{Path: p, Blob: h(p)})
	}
	slices.SortFunc(base, func(a, b Entry) int {
		if a.Path < b.Path {
			return -1
		}
		return 1
	})
	edit := func(f func(es []Entry) []Entry) []Entry { return f(slices.Clone(base)) }
	variants := [][]Entry{
		edit(func(es []Entry) []Entry { es[3].Blob = h("x"); return es }),
		edit(func(es []Entry) []Entry { es[3].Blob = h("x"); es[7].Blob = h("y"); return es }),
		edit(func(es []Entry) []Entry { es[3].Blob = h("z"); return slices.Delete(es, 10, 11) }),
		edit(func(es []Entry) []Entry {
			es[5].Skip = SkipVendored
			return append(es, Entry{Path: "zz.go", Blob: h("zz")})
		}),
		edit(func(es []Entry) []Entry { return append(es, Entry{Path: "zz.go", Blob: h("zz2")}) }),
		edit(func(es []Entry) []Entry { return es }), // back to the base's entries
	}
	dir := t.TempDir()
	bl := &Listing{Tree: h("base tree"), Entries: base}
	if err := writeListing(dir, bl); err != nil {
		t.Fatal(err)
	}
	trees, written := []plumbing.Hash{bl.Tree}, []*Listing{bl}
	for i, es := range variants {
		l := &Listing{Tree: h(fmt.Sprint("tree ", i)), Entries: es, base: bl}
		if err := writeListing(dir, l); err != nil {
			t.Fatal(err)
		}
		trees, written = append(trees, l.Tree), append(written, l)
	}
	read := func(lazy bool) []*Listing {
		ld := &listingLoader{dir: dir, memo: map[plumbing.Hash]*Listing{}, lazy: lazy}
		var ls []*Listing
		for _, tr := range trees {
			l, err := ld.read(tr)
			if err != nil {
				t.Fatal(err)
			}
			ls = append(ls, l)
		}
		return ls
	}
	// What a set of prev's entries says.
	walked := func(prev, l *Listing) []Entry {
		out, held := []Entry{}, map[Entry]bool{}
		for _, e := range prev.Entries {
			held[e] = true
		}
		for _, e := range l.Entries {
			if !held[e] {
				out = append(out, e)
			}
		}
		return out
	}
	// As read back together, with their entries built or left to build,
	// and as written (an indexing run hands the listings it wrote to the
	// query); the answers are checked against a walk over built entries.
	full := read(false)
	for what, ls := range map[string][]*Listing{"read": full, "read by delta": read(true), "written": written} {
		for i, prev := range ls {
			for j, l := range ls {
				if prev.against == nil || prev.against != l.against {
					t.Fatalf("%s listings %d and %d do not know their common base", what, i, j)
				}
				if got, want := FreshEntries(prev, l), walked(full[i], full[j]); !slices.Equal(got, want) {
					t.Errorf("%s: fresh entries of %d after %d: %v, want %v", what, j, i, got, want)
				}
				if _, got := Changes(prev, l); !slices.Equal(got, walked(full[j], full[i])) {
					t.Errorf("%s: entries %d lost after %d: %v, want %v", what, j, i, got, walked(full[j], full[i]))
				}
			}
		}
		for j, l := range ls {
			if l.lazy != (what == "read by delta" && j > 0) {
				t.Errorf("%s: listing %d unbuilt: %v", what, j, l.lazy)
			}
			if !slices.Equal(l.Full(), full[j].Entries) {
				t.Errorf("%s: listing %d has other entries than read in full", what, j)
			}
		}
	}
	// Listings of different bases are walked, over their built entries.
	other := &Listing{Tree: h("other base"), Entries: variants[0]}
	if err := writeListing(dir, other); err != nil {
		t.Fatal(err)
	}
	lazy := read(true)
	if got, want := FreshEntries(other, lazy[2]), walked(other, full[2]); !slices.Equal(got, want) || len(want) == 0 || lazy[2].lazy {
		t.Errorf("fresh entries against another base: %v, want %v (built: %v)", got, want, !lazy[2].lazy)
	}
	// A listing never cached (or of another base) is walked.
	loose := &Listing{Tree: h("loose"), Entries: variants[2]}
	if got, want := FreshEntries(full[1], loose), walked(full[1], loose); !slices.Equal(got, want) || len(want) == 0 {
		t.Errorf("fresh entries of an uncached listing: %v, want %v", got, want)
	}
}
