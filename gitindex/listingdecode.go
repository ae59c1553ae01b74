package gitindex

import (
	"encoding/binary"
	"fmt"
	"unsafe"

	"github.com/go-git/go-git/v5/plumbing"
)

// listingReader decodes the body of a listing file.
type listingReader struct {
	tree plumbing.Hash
	d    []byte
	err  error
}

func (r *listingReader) fail(what string) {
	if r.err == nil {
		r.err = fmt.Errorf("tree listing %s: corrupt %s", r.tree, what)
	}
}

func (r *listingReader) count() int {
	n, k := binary.Uvarint(r.d)
	if k <= 0 || n > uint64(len(r.d)) {
		r.fail("count")
		return 0
	}
	r.d = r.d[k:]
	return int(n)
}

// pathList decodes n front-coded paths (calling each after the i-th, to
// read what follows it) into one string: its bytes are
// allocated once, and each path is a slice of it.
func (r *listingReader) pathList(n int, each func(i int)) []string {
	// Paths are front-coded, so their bytes can be several times what the
	// file holds for them; n is at most the file's length (count).
	arena := make([]byte, 0, n*48)
	ends := make([]int, 0, n)
	prev := 0 // where the previous path starts in arena
	for i := range n {
		shared, k1 := binary.Uvarint(r.d)
		if k1 <= 0 || shared > uint64(len(arena)-prev) {
			r.fail("path")
			return nil
		}
		r.d = r.d[k1:]
		m, k2 := binary.Uvarint(r.d)
		if k2 <= 0 || m > uint64(len(r.d)-k2) {
			r.fail("path")
			return nil
		}
		start := len(arena)
		arena = append(arena, arena[prev:prev+int(shared)]...)
		arena = append(arena, r.d[k2:k2+int(m)]...)
		r.d = r.d[k2+int(m):]
		ends, prev = append(ends, len(arena)), start
		if each != nil {
			if each(i); r.err != nil {
				return nil
			}
		}
	}
	// The arena is never written again: its bytes become the string
	// without a copy.
	all := unsafe.String(unsafe.SliceData(arena), len(arena))
	ps := make([]string, n)
	start := 0
	for i, end := range ends {
		ps[i], start = all[start:end], end
	}
	return ps
}

func (r *listingReader) entries() []Entry {
	n := r.count()
	es := make([]Entry, n)
	ps := r.pathList(n, func(i int) {
		if len(r.d) < len(plumbing.ZeroHash)+1 {
			r.fail("entry")
			return
		}
		e := &es[i]
		copy(e.Blob[:], r.d)
		code := r.d[len(plumbing.ZeroHash)]
		if int(code) >= len(SkipCodes) {
			r.fail("entry")
			return
		}
		e.Skip = SkipCodes[code]
		r.d = r.d[len(plumbing.ZeroHash)+1:]
	})
	if r.err != nil {
		return nil
	}
	for i := range es {
		es[i].Path = ps[i]
	}
	return es
}

func (r *listingReader) paths() []string {
	return r.pathList(r.count(), nil)
}
