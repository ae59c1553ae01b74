//go:build unix

package gitindex

import (
	"os"

	"golang.org/x/sys/unix"
)

// mapFile maps size bytes of f read-only.
func mapFile(f *os.File, size int) ([]byte, func([]byte) error) {
	data, err := unix.Mmap(int(f.Fd()), 0, size, unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return nil, nil
	}
	return data, unix.Munmap
}
