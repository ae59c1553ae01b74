package vector

import (
	"fmt"
	"os"
	"sync"

	"github.com/bcindex/bcindex/internal/mmap"
)

// Segments of one store may share parts (a store keeps a vector once and
// lets several segments name its part): each region of a file is mapped
// once per process while any segment holds it, so that the pages of a
// shared part are mapped, and counted in the resident set, once, however
// many segments scan them.
var maps = struct {
	sync.Mutex
	m map[mapKey]*mapEntry
}{m: map[mapKey]*mapEntry{}}

type mapKey struct {
	path     string
	off, len int64
}

type mapEntry struct {
	data []byte
	fi   os.FileInfo // the file mapped: another file at the path maps anew
	refs int
	cell *sketchCell // the region's sign-bit sketch, built on first use
}

// acquire maps n bytes at off (a page boundary) of f, opened at path, or
// returns the mapping a segment holds of the same bytes of the same file.
// The caller releases it. The cell holds the mapped bytes' sketch, shared
// like the mapping.
func acquire(f *os.File, path string, fi os.FileInfo, off int64, n int) ([]byte, *sketchCell, error) {
	k := mapKey{path, off, int64(n)}
	maps.Lock()
	defer maps.Unlock()
	if e := maps.m[k]; e != nil && os.SameFile(e.fi, fi) {
		e.refs++
		return e.data, e.cell, nil
	}
	data, err := mmap.Map(f, off, n)
	if err != nil {
		return nil, nil, err
	}
	cell := &sketchCell{}
	if e := maps.m[k]; e == nil {
		maps.m[k] = &mapEntry{data: data, fi: fi, refs: 1, cell: cell}
	}
	return data, cell, nil
}

// release gives back a mapping acquire returned, unmapping it when no
// segment holds it any more. When another segment still holds it, the
// pages are taken out of the resident set all the same (mmap.Release):
// the holder that read them is done, and whoever reads them next faults
// them back in from the page cache. An indexing run keeps every live
// segment's vectors mapped while it merges some of them: without this,
// each vector a merge read stayed resident until the run ended, which on
// git's whole history was a few hundred MB at the largest merges.
func release(data []byte) error {
	if len(data) == 0 {
		return nil
	}
	maps.Lock()
	defer maps.Unlock()
	for k, e := range maps.m {
		if len(e.data) > 0 && &e.data[0] == &data[0] {
			if e.refs--; e.refs > 0 {
				mmap.Release(data)
				return nil
			}
			delete(maps.m, k)
			break
		}
	}
	if err := mmap.Unmap(data); err != nil {
		return fmt.Errorf("vector: munmap: %w", err)
	}
	return nil
}
