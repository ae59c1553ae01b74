package gc

import (
	"fmt"
	"slices"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/embed"
	"github.com/bcindex/bcindex/gitindex"
	"github.com/bcindex/bcindex/internal/testkit/gittest"
	"github.com/bcindex/bcindex/segment"
	"github.com/bcindex/bcindex/store"
)

// TestRewritePlanCopiesEachBlobOnce plans rewrites of segments that hold
// the same blobs (one real segment under several names): a blob a kept
// segment holds is not copied, one two rewritten segments hold is copied
// once, dead blobs not at all, and the parts are packed within the bound
// in the order of the blobs' paths.
func TestRewritePlanCopiesEachBlobOnce(t *testing.T) {
	r := gittest.New(t)
	r.Commit("init", manyFiles(30))
	indexRevs(t, r.Dir, embed.Default(), "main")
	repo, err := gitindex.OpenRepo(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	m, err := store.ReadManifest(repo.IndexDir)
	if err != nil || len(m.Segments) != 1 {
		t.Fatalf("manifest %+v %v", m, err)
	}
	open := func(string) (*segment.Table, error) {
		return segment.OpenTable(segment.File(repo.IndexDir, m.Segments[0], segment.ChunksFile))
	}
	tab := openTable(t, repo.IndexDir, m.Segments[0])
	rows, blobs := tab.Nrows, map[plumbing.Hash]int{}
	// Paths that sort against the rows' order.
	paths := map[plumbing.Hash]string{}
	var dead plumbing.Hash
	for b := 0; b < tab.Nblobs; b++ {
		first, n := tab.BlobRange(b)
		blobs[tab.BlobSHA(b)] = n
		paths[tab.BlobSHA(b)] = fmt.Sprintf("f%06d", rows-first)
		if b == 3 {
			dead = tab.BlobSHA(b)
		}
	}
	tab.Close()
	live := func(h plumbing.Hash) bool { return h != dead }
	path := func(h plumbing.Hash) (string, bool) { return paths[h], live(h) }
	limit := rows / 3

	// A kept segment (full, nothing stale) holds every blob: nothing to copy.
	drop, parts, err := rewritePlan([]segRows{{id: "kept", rows: rows}, {id: "stale", rows: rows, dead: 1}, {id: "small", rows: 1}}, open, path, limit)
	if err != nil || !slices.Equal(drop, []string{"stale", "small"}) || len(parts) != 0 {
		t.Errorf("kept segment: drop %v, %d parts, %v", drop, len(parts), err)
	}

	// Two rewritten segments hold the same blobs: each live one is copied
	// once, from the first.
	drop, parts, err = rewritePlan([]segRows{{id: "a", rows: rows, dead: 1}, {id: "b", rows: rows, foreign: true}}, open, path, limit)
	if err != nil || !slices.Equal(drop, []string{"a", "b"}) || len(parts) < 3 {
		t.Fatalf("duplicates: drop %v, %d parts, %v", drop, len(parts), err)
	}
	copies := map[plumbing.Hash]int{}
	last := ""
	for i, p := range parts {
		n := 0
		var held []string
		for _, in := range p.Inputs {
			for h, k := range blobs {
				if p.Keep(in, h) {
					copies[h]++
					n += k
					held = append(held, paths[h])
				}
			}
		}
		// Parts follow the paths' order.
		slices.Sort(held)
		if len(held) > 0 && held[0] < last {
			t.Errorf("part %d starts at %s, before the previous part's last path %s", i, held[0], last)
		}
		if len(held) > 0 {
			last = held[len(held)-1]
		}
		if !slices.Equal(p.Inputs, []string{"a"}) {
			t.Errorf("part %d copies from %v", i, p.Inputs)
		}
		if n > limit || n == 0 {
			t.Errorf("part %d holds %d rows, bound %d", i, n, limit)
		}
	}
	for h := range blobs {
		if want := map[bool]int{true: 1}[live(h)]; copies[h] != want {
			t.Errorf("blob %s copied %d times, want %d", h, copies[h], want)
		}
	}

	// Nothing stale and one small segment: nothing to do.
	if drop, parts, err := rewritePlan([]segRows{{id: "a", rows: rows}, {id: "b", rows: 1}}, open, func(plumbing.Hash) (string, bool) { return "", true }, limit); drop != nil || parts != nil || err != nil {
		t.Errorf("nothing stale: drop %v, %d parts, %v", drop, len(parts), err)
	}
}
