//go:build !unix

package vector

import (
	"io"
	"os"
	"unsafe"
)

// mapFile reads the file into 8-byte-aligned memory on platforms without
// the unix mmap API.
func mapFile(f *os.File, size int) ([]byte, error) {
	words := make([]uint64, (size+7)/8)
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(words))), size)
	if _, err := f.ReadAt(b, 0); err != nil && err != io.EOF {
		return nil, err
	}
	return b, nil
}

func unmapFile([]byte) error { return nil }
