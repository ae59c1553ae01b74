//go:build !unix

package vector

import (
	"io"
	"os"
	"unsafe"
)

// mapFileAt reads size bytes of f from off into 8-byte-aligned memory on
// platforms without the unix mmap API.
func mapFileAt(f *os.File, off int64, size int) ([]byte, error) {
	words := make([]uint64, (size+7)/8)
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(words))), size)
	if _, err := f.ReadAt(b, off); err != nil && err != io.EOF {
		return nil, err
	}
	return b, nil
}

func unmapFile([]byte) error { return nil }
