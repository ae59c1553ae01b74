//go:build !unix

package mmap

import (
	"io"
	"os"
	"unsafe"
)

// Supported reports whether files are mapped rather than read.
const Supported = false

// mapAt reads the bytes into 8-byte-aligned memory (vectors are read in
// place as int8 rows and float32 scales).
func mapAt(f *os.File, off int64, size int) ([]byte, error) {
	words := make([]uint64, (size+7)/8)
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(words))), size)
	if _, err := f.ReadAt(b, off); err != nil && err != io.EOF {
		return nil, err
	}
	return b, nil
}

func unmap([]byte) error { return nil }

func release([]byte) {}
