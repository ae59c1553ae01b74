// Package mmap maps files read-only, for the index files queries read in
// place.
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
	if st.Size() == 0 {
		return []byte{}, func() error { return nil }, nil
	}
	if st.Size() != int64(int(st.Size())) {
		return nil, nil, fmt.Errorf("map %s: file too large (%d bytes)", path, st.Size())
	}
	return mapFile(f, int(st.Size()))
}
