//go:build unix

package mmap

import (
	"os"

	"golang.org/x/sys/unix"
)

// Supported reports whether files are mapped rather than read.
const Supported = true

func mapAt(f *os.File, off int64, size int) ([]byte, error) {
	return unix.Mmap(int(f.Fd()), off, size, unix.PROT_READ, unix.MAP_SHARED)
}

func unmap(b []byte) error { return unix.Munmap(b) }

// release is best effort: a mapping it cannot advise stays as it was.
func release(b []byte) { unix.Madvise(b, unix.MADV_DONTNEED) }
