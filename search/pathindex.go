package search

import (
	"slices"
	"strings"
	"sync/atomic"

	"github.com/bcindex/bcindex/store"
)

// pathIndex maps each token of the path fields (pathField) of a view's
// added blobs to the blobs whose field holds it and how many times, so
// that pathTF looks a term's forms up where it otherwise scans every
// field's text (pathsHolding) and splits the fields that hold one. The
// scan keeps a field only when its lowercased text holds a form; a token
// is almost always a piece of that text, and the fields where one is not
// (loose) are checked as the scan does. Building it reads and splits
// every path, more than one query's scan costs, so a view builds it for
// its second query that runs the text arm, kept with the store's view
// (pathIndexOf).
type pathIndex struct {
	ids   map[string]int32 // token → its postings, post[start[id]:start[id+1]]
	start []int32
	post  []pathPost
	loose map[int32]bool // fields with a token their lowercased text lacks
}

// pathPost is a field (its index in the view's added) and how many of its
// tokens equal the token.
type pathPost struct {
	i, n int32
}

// newPathIndex builds the pathIndex of added.
func newPathIndex(added []blobRef) *pathIndex {
	px := &pathIndex{ids: map[string]int32{}}
	type entry struct{ id, i, n int32 }
	var es []entry
	var counts []int32
	for i, b := range added {
		toks := pathField(b.path)
		var field string
		for k, tok := range toks {
			if slices.Contains(toks[:k], tok) {
				continue // counted at its first
			}
			n := int32(1)
			for _, u := range toks[k+1:] {
				if u == tok {
					n++
				}
			}
			id, ok := px.ids[tok]
			if !ok {
				id = int32(len(counts))
				px.ids[strings.Clone(tok)] = id
				counts = append(counts, 0)
			}
			counts[id]++
			es = append(es, entry{id, int32(i), n})
			if field == "" {
				field = lowerASCII(fieldText(b.path))
			}
			if !strings.Contains(field, tok) {
				if px.loose == nil {
					px.loose = map[int32]bool{}
				}
				px.loose[int32(i)] = true
			}
		}
	}
	px.start = make([]int32, len(counts)+1)
	for id, c := range counts {
		px.start[id+1] = px.start[id] + c
	}
	next := slices.Clone(px.start[:len(counts)])
	px.post = make([]pathPost, len(es))
	for _, e := range es {
		px.post[next[e.id]] = pathPost{e.i, e.n}
		next[e.id]++
	}
	return px
}

// of returns the postings of tok, in the order of added.
func (px *pathIndex) of(tok string) []pathPost {
	id, ok := px.ids[tok]
	if !ok {
		return nil
	}
	return px.post[px.start[id]:px.start[id+1]]
}

// fieldCounts returns, in the order of added, the fields whose path field
// holds one of forms (distinct) as a token and whose lowercased text
// holds one as a piece (what pathsHolding finds), each with how many of
// its tokens are one of forms: what pathTF reads from the scan and
// pathField.
func (v *view) fieldCounts(px *pathIndex, forms []string) []pathPost {
	var out []pathPost
	for _, f := range forms {
		out = append(out, px.of(f)...)
	}
	if len(forms) > 1 {
		slices.SortStableFunc(out, func(a, b pathPost) int { return int(a.i - b.i) })
		j := 0
		for _, p := range out {
			if j > 0 && out[j-1].i == p.i {
				out[j-1].n += p.n
				continue
			}
			out[j] = p
			j++
		}
		out = out[:j]
	}
	if len(px.loose) == 0 {
		return out
	}
	text, ends := v.lowerPaths()
	kept := out[:0]
	for _, p := range out {
		if px.loose[p.i] {
			field := text[pathStart(ends, int(p.i)):ends[p.i]]
			if !slices.ContainsFunc(forms, func(f string) bool { return strings.Contains(field, f) }) {
				continue
			}
		}
		kept = append(kept, p)
	}
	return kept
}

// pathIndexKey and textQueriesKey key a view's path index and the count
// of its queries that ran the text arm in store.View.Memo.
type (
	pathIndexKey struct {
		paths pathsKey
		snap  *store.Snapshot
	}
	textQueriesKey pathIndexKey
)

// pathIndexOf returns the path index of the view's added blobs when the
// store's view it was opened on has run the text arm on them before (from
// its second text arm on: made then, kept for the next), nil otherwise.
// A query asks once.
func (v *view) pathIndexOf() *pathIndex {
	v.pxOnce.Do(func() {
		if v.memo == nil {
			return
		}
		k := pathIndexKey{v.pathsKey, v.snap}
		n := v.memo.Memo(textQueriesKey(k), func() any { return new(atomic.Int64) }).(*atomic.Int64)
		if n.Add(1) < 2 {
			return
		}
		v.px = v.memo.Memo(k, func() any { return newPathIndex(v.added) }).(*pathIndex)
	})
	return v.px
}
