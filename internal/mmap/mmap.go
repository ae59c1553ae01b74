// Package mmap maps files read-only, for the index files queries read in
// place: the one mapping helper of the module, with the build tags that
// let every package using it build where mmap is not available (there the
// bytes are read into memory instead).
package mmap

import (
	"fmt"
	"os"
)

// File maps the whole file at path read-only. The returned function unmaps
// it. An empty file maps to an empty slice.
func File(path string) ([]byte, func() error, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if st.Size() != int64(int(st.Size())) {
		return nil, nil, fmt.Errorf("map %s: file too large (%d bytes)", path, st.Size())
	}
	data, err := Map(f, 0, int(st.Size()))
	if err != nil {
		return nil, nil, err
	}
	return data, func() error { return Unmap(data) }, nil
}

// Map maps size bytes of f from off (a multiple of the page size)
// read-only and shared; where mmap is not available it reads them into
// 8-byte-aligned memory. Unmap releases what it returned; size 0 maps to
// an empty slice.
func Map(f *os.File, off int64, size int) ([]byte, error) {
	if size == 0 {
		return []byte{}, nil
	}
	return mapAt(f, off, size)
}

// Unmap releases a mapping Map returned.
func Unmap(b []byte) error {
	if len(b) == 0 {
		return nil
	}
	return unmap(b)
}

// Release takes the pages of a mapping Map returned out of the process's
// resident set, leaving it mapped: they stay in the page cache (the file
// is mapped read-only, so none is lost) and the next read faults them
// back in from there. Where mmap is not available it does nothing.
func Release(b []byte) {
	if len(b) > 0 {
		release(b)
	}
}
