//go:build unix

package vector

import (
	"os"

	"golang.org/x/sys/unix"
)

// mapFileAt maps size bytes of f from off (a multiple of the page size)
// read-only and shared.
func mapFileAt(f *os.File, off int64, size int) ([]byte, error) {
	return unix.Mmap(int(f.Fd()), off, size, unix.PROT_READ, unix.MAP_SHARED)
}

func unmapFile(b []byte) error { return unix.Munmap(b) }
