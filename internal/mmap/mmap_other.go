//go:build !unix

package mmap

import (
	"io"
	"os"
)

// mapFile reads the file where mmap is not available.
func mapFile(f *os.File, size int) ([]byte, func() error, error) {
	data := make([]byte, size)
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, nil, err
	}
	return data, func() error { return nil }, nil
}
