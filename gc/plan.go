package gc

import (
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bcindex/bcindex/indexer"
	"github.com/bcindex/bcindex/segment"
)

// segRows is what the plan knows of a live segment.
type segRows struct {
	id      string
	rows    int
	dead    int  // blobs no ref reaches
	foreign bool // holds vectors of a model other than the configured one
}

// stale reports whether the segment holds what gc drops.
func (s segRows) stale() bool { return s.dead > 0 || s.foreign }

// rewritePlan decides which segments gc rewrites and how: a segment that
// holds a dead blob or another model's vectors is rewritten without them,
// and the small ones (below limit/2 rows) are merged, but a segment of
// limit/2 rows or more that holds neither is left as it is. The live
// blobs of the rewritten segments, each once (a blob a kept segment holds
// is not copied, nor one two rewritten segments hold twice: the first in
// manifest and row order is), are packed into parts of at most limit rows
// (a single blob of more rows makes a part of its own): one merge never
// writes more, whatever the size of the index. They are packed in the
// order of their paths (path names a live blob's path, ok false for a
// dead one), so that the versions of a file share a part: a segment
// stores one vector per distinct content, and a file's versions repeat
// most of theirs. Nothing is rewritten when no segment is stale and at
// most one is small. The plan depends only on the segments and the live
// set, so two runs on the same store write the same.
func rewritePlan(segs []segRows, open func(id string) (*segment.Table, error), path func(plumbing.Hash) (string, bool), limit int) (drop []string, parts []indexer.Part, err error) {
	stale := false
	for _, s := range segs {
		if s.stale() || s.rows < limit/2 {
			drop = append(drop, s.id)
			stale = stale || s.stale()
		}
	}
	if !stale && len(drop) <= 1 {
		return nil, nil, nil
	}
	// owner names, for each blob a kept segment holds or a part copies,
	// the part (-1: kept) and the input (an index in drop) it comes from.
	type source struct{ part, input int32 }
	owner := map[plumbing.Hash]source{}
	rewritten := map[string]bool{}
	for _, id := range drop {
		rewritten[id] = true
	}
	for _, s := range segs {
		if rewritten[s.id] {
			continue
		}
		t, err := open(s.id)
		if err != nil {
			return nil, nil, err
		}
		for b := 0; b < t.Nblobs; b++ {
			owner[t.BlobSHA(b)] = source{-1, -1}
		}
		t.Close()
	}
	// The blobs to copy, in manifest and row order.
	type blob struct {
		h     plumbing.Hash
		path  string
		input int32
		rows  int
	}
	var copies []blob
	for in, id := range drop {
		t, err := open(id)
		if err != nil {
			return nil, nil, err
		}
		for _, b := range rowOrder(t) {
			h := t.BlobSHA(b)
			p, ok := path(h)
			if _, seen := owner[h]; seen || !ok {
				continue
			}
			_, n := t.BlobRange(b)
			owner[h] = source{-1, int32(in)}
			copies = append(copies, blob{h, p, int32(in), n})
		}
		t.Close()
	}
	slices.SortStableFunc(copies, func(a, b blob) int { return strings.Compare(a.path, b.path) })
	var inputs [][]bool // of each part, which of drop it copies from
	rows := 0
	for _, c := range copies {
		if len(inputs) == 0 || rows > 0 && rows+c.rows > limit {
			inputs = append(inputs, make([]bool, len(drop)))
			rows = 0
		}
		inputs[len(inputs)-1][c.input] = true
		owner[c.h] = source{int32(len(inputs) - 1), c.input}
		rows += c.rows
	}
	index := make(map[string]int32, len(drop))
	for i, id := range drop {
		index[id] = int32(i)
	}
	parts = make([]indexer.Part, len(inputs))
	for i, from := range inputs {
		for in, ok := range from {
			if ok {
				parts[i].Inputs = append(parts[i].Inputs, drop[in])
			}
		}
		parts[i].Keep = func(input string, h plumbing.Hash) bool {
			s, ok := owner[h]
			return ok && s.part == int32(i) && s.input == index[input]
		}
	}
	return drop, parts, nil
}

// rowOrder lists a table's blobs in the order of their rows.
func rowOrder(t *segment.Table) []int {
	order := make([]int, t.Nblobs)
	for b := range order {
		order[b] = b
	}
	slices.SortFunc(order, func(a, b int) int {
		fa, _ := t.BlobRange(a)
		fb, _ := t.BlobRange(b)
		return fa - fb
	})
	return order
}
