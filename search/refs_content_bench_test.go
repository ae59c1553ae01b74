package search

import (
	"context"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/store"
)

// contentCount counts what a selection of refs shows: the chunk rows of
// the distinct blobs of their trees, and the distinct chunk contents among
// them (rows with text of their own, by content hash). A search's work
// should follow the second figure, whatever the number of refs.
func contentCount(b *testing.B, repo *gitindex.Repo, sel gitindex.RefSelection) (rows, distinct int) {
	b.Helper()
	revs, err := repo.ExpandRefs(sel)
	if err != nil {
		b.Fatal(err)
	}
	commits, err := resolveRevisions(repo, revs)
	if err != nil {
		b.Fatal(err)
	}
	opts := Options{}
	rd, err := store.Open(context.Background(), repo, store.Want{Commits: commits}, "")
	if err != nil {
		b.Fatal(err)
	}
	defer rd.Close()
	// One listing per distinct tree, as a search over the refs takes them.
	seen := map[plumbing.Hash]bool{}
	var trees []*gitindex.Listing
	var fresh [][]gitindex.Entry
	var located [][]store.BlobLoc
	for i, l := range rd.Listings {
		if !seen[l.Tree] {
			seen[l.Tree] = true
			trees = append(trees, l)
			fresh = append(fresh, rd.Fresh[i])
			located = append(located, rd.Located[i])
		}
	}
	opts.compiled()
	v := newView(repo, commits[0], rd.Snap, trees, fresh, located, &opts)
	contents := map[[16]byte]bool{}
	for s, seg := range rd.Snap.Segments {
		for r, ok := v.allow[s].NextSet(0); ok; r, ok = v.allow[s].NextSet(r + 1) {
			rows++
			if h, indexed := seg.RowHash(int(r)); indexed && h != ([16]byte{}) {
				contents[h] = true
			}
		}
	}
	return rows, len(contents)
}
