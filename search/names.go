package search

import (
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"github.com/bcindex/bcindex/store"
)

// nameIndex is, for each segment of a snapshot, its rows' names squashed
// (squash), and the last part of each qualified name squashed, sorted:
// the rows whose name or last part starts with a squashed query are one
// range of it, found by binary search, where the symbol arm otherwise
// reads every visible row's name. Building it reads and sorts every name,
// more than one query's scan costs, so a view builds it for its second
// query that runs the symbol arm, kept with the store's view
// (nameIndexOf).
type nameIndex struct {
	segs []nameKeys
}

// nameKeys is one segment's squashed names, joined in text, and their
// rows, sorted by name then row.
type nameKeys struct {
	text string
	keys []nameKey
}

// nameKey is a squashed name (or last part), text[off:off+n], and its row.
type nameKey struct {
	off, n, row uint32
}

func (k *nameKeys) key(i int) string {
	e := k.keys[i]
	return k.text[e.off : e.off+e.n]
}

// newNameIndex builds the nameIndex of snap.
func newNameIndex(snap *store.Snapshot) *nameIndex {
	ni := &nameIndex{segs: make([]nameKeys, len(snap.Segments))}
	for s, seg := range snap.Segments {
		keys := make([]nameKey, 0, seg.Rows())
		var buf []byte
		add := func(name []byte, r int) {
			off := len(buf)
			buf = appendSquashed(buf, name)
			keys = append(keys, nameKey{uint32(off), uint32(len(buf) - off), uint32(r)})
		}
		for r := 0; r < seg.Rows(); r++ {
			name := seg.NameBytes(r)
			if len(name) == 0 {
				continue
			}
			add(name, r)
			if i := lastSeparator(name); i > 0 && i < len(name)-1 {
				add(name[i+1:], r)
			}
		}
		text := string(buf)
		slices.SortFunc(keys, func(a, b nameKey) int {
			if c := strings.Compare(text[a.off:a.off+a.n], text[b.off:b.off+b.n]); c != 0 {
				return c
			}
			return int(a.row) - int(b.row)
		})
		ni.segs[s] = nameKeys{text, keys}
	}
	return ni
}

// appendSquashed appends name squashed (squash) to dst, without a string
// for an ASCII name.
func appendSquashed(dst, name []byte) []byte {
	start := len(dst)
	for _, c := range name {
		switch {
		case c >= utf8.RuneSelf:
			return append(dst[:start], squash(string(name))...)
		case 'A' <= c && c <= 'Z':
			dst = append(dst, c+'a'-'A')
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
			dst = append(dst, c)
		}
	}
	return dst
}

// rows returns, in order, the rows of segment s whose squashed name or
// last part starts with nq (not empty): every row nameScore can score
// above 0 for it.
func (ni *nameIndex) rows(s int, nq string, dst []int32) []int32 {
	k := &ni.segs[s]
	i := sort.Search(len(k.keys), func(i int) bool { return k.key(i) >= nq })
	dst = dst[:0]
	for ; i < len(k.keys) && strings.HasPrefix(k.key(i), nq); i++ {
		dst = append(dst, int32(k.keys[i].row))
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
// store's view it was opened on has run the symbol arm before (from its
// second symbol arm on: made then, kept for the next), nil otherwise.
// symbolArm says whether this query runs the symbol arm (counted); a
// query that only reads names for its boosts (a text or vector query)
// uses an index made already but does not count, so one request's
// hybrid query and its text and vector tails (the MCP server's) never
// build one. A query asks once; its arms share the answer.
func (v *view) nameIndexOf(symbolArm bool) *nameIndex {
	v.niOnce.Do(func() {
		if v.memo == nil {
			return
		}
		n := v.memo.Memo(symbolQueriesKey{}, func() any { return new(atomic.Int64) }).(*atomic.Int64)
		c := n.Load()
		if symbolArm {
			c = n.Add(1)
		}
		if c < 2 {
			return
		}
		v.ni = v.memo.Memo(nameIndexKey{}, func() any { return newNameIndex(v.snap) }).(*nameIndex)
	})
	return v.ni
}
