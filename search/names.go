package search

import (
	"slices"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/bcindex/bcindex/store"
)

// nameIndex is, for each segment of a snapshot, its rows' names squashed
// (squash), and the last part of each qualified name squashed, sorted:
// the rows whose name or last part starts with a squashed query are one
// range of it, found by binary search, where the symbol arm otherwise
// reads every visible row's name. Building it reads and sorts every name,
// more than one query's scan costs, so a view builds it for its second
// symbol query (a server's), kept with the store's view (nameIndexOf).
type nameIndex struct {
	segs [][]nameKey
}

// nameKey is a squashed name (or last part) and its row.
type nameKey struct {
	key string
	row int32
}

// newNameIndex builds the nameIndex of snap.
func newNameIndex(snap *store.Snapshot) *nameIndex {
	ni := &nameIndex{segs: make([][]nameKey, len(snap.Segments))}
	for s, seg := range snap.Segments {
		keys := make([]nameKey, 0, seg.Rows())
		for r := 0; r < seg.Rows(); r++ {
			name := seg.NameBytes(r)
			if len(name) == 0 {
				continue
			}
			keys = append(keys, nameKey{squash(string(name)), int32(r)})
			if i := lastSeparator(name); i > 0 && i < len(name)-1 {
				keys = append(keys, nameKey{squash(string(name[i+1:])), int32(r)})
			}
		}
		slices.SortFunc(keys, func(a, b nameKey) int {
			if c := strings.Compare(a.key, b.key); c != 0 {
				return c
			}
			return int(a.row - b.row)
		})
		ni.segs[s] = keys
	}
	return ni
}

// rows returns, in order, the rows of segment s whose squashed name or
// last part starts with nq (not empty): every row nameScore can score
// above 0 for it.
func (ni *nameIndex) rows(s int, nq string, dst []int32) []int32 {
	keys := ni.segs[s]
	i := sort.Search(len(keys), func(i int) bool { return keys[i].key >= nq })
	dst = dst[:0]
	for ; i < len(keys) && strings.HasPrefix(keys[i].key, nq); i++ {
		dst = append(dst, keys[i].row)
	}
	slices.Sort(dst)
	return slices.Compact(dst)
}

// nameIndexKey and symbolQueriesKey key the name index and the count of
// symbol queries in store.View.Memo.
type (
	nameIndexKey     struct{}
	symbolQueriesKey struct{}
)

// nameIndexOf returns the name index of the view's snapshot when the
// store's view it was opened on has answered a query that read names
// before (from its second on: made then, kept for the next), nil
// otherwise. A query asks once; its arms share the answer.
func (v *view) nameIndexOf() *nameIndex {
	v.niOnce.Do(func() {
		if v.memo == nil {
			return
		}
		n := v.memo.Memo(symbolQueriesKey{}, func() any { return new(atomic.Int64) }).(*atomic.Int64)
		if n.Add(1) < 2 {
			return
		}
		v.ni = v.memo.Memo(nameIndexKey{}, func() any { return newNameIndex(v.snap) }).(*nameIndex)
	})
	return v.ni
}
